import Foundation
import FuzzSupport
import PhotoValidation
import VipsDecoder

/// The validator every input goes through: the sniff, the one loader, libjpeg, the blur kernel.
nonisolated(unsafe) let validator: PhotoValidator = {
    var settings = ValidationSettings()
    // Small limits keep each execution quick and make memory refusals reachable.
    settings.pixelLimit = 40_000_000
    settings.decodeMemoryBudget = 256 << 20
    return try! PhotoValidator(settings: settings)
}()

/// libFuzzer's entry point: validates the bytes as a room photo; any crash or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let output = validator.validate(UnsafeRawBufferPointer(start: data, count: size), as: .room)
    // The contract: invalid_image stands alone, and passed means no failures.
    precondition(!output.failures.contains(.invalidImage) || output.failures == [.invalidImage], "invalid_image with other failures")
    precondition(output.passed == output.failures.isEmpty, "passed disagrees with failures")
    return 0
}

#if !FUZZING
/// Without libFuzzer: replays every file named (or found in folders named) through the target.
@main
enum Replay {
    static func main() {
        FuzzReplay.run(arguments: Array(CommandLine.arguments.dropFirst())) { bytes in
            bytes.withUnsafeBufferPointer { _ = fuzzDecode($0.baseAddress, $0.count) }
        }
    }
}
#endif
