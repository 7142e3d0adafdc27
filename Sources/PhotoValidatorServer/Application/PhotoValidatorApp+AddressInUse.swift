import Foundation
import NIOCore

extension PhotoValidatorApp {
    /// Whether `error` is the listener's bind failing because another process holds the address
    /// (EADDRINUSE), so the operator can be told to pick another port.
    package static func isAddressInUse(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == EADDRINUSE
    }
}
