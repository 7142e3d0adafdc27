import Crypto
import Foundation
import NIOCore
import PhotoValidation

/// An upload's `Idempotency-Key`: 1 to 255 visible ASCII characters, scoped to its project.
struct IdempotencyKey: Sendable, Equatable {
    /// The key as sent.
    let value: String

    /// The key in `header`, nil when there is none.
    ///
    /// - Throws: `APIError` 422 when it is empty, too long or not visible ASCII.
    init?(_ header: String?) throws(APIError) {
        guard let header else { return nil }
        guard (1...255).contains(header.utf8.count), header.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .validationError("Idempotency-Key must be 1 to 255 visible ASCII characters")
        }
        value = header
    }

    /// A photo id derived from the project and the key (a SHA-256 name-based UUID, version 8),
    /// the same for every repeat.
    func photoID(projectID: String) -> String {
        var bytes = Array(SHA256.hash(data: Data("\(projectID)\u{0}\(value)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// A digest of everything an upload sends that changes its answer or its signal: its fields and
    /// `fileDigest`, the file's own SHA-256 (taken once, and used again as the content check's cache key).
    static func digest(fileDigest: String, photoType: PhotoType, note: String?, storageKey: String?) -> String {
        var hasher = SHA256()
        for field in [photoType.rawValue, note ?? "", storageKey ?? "", fileDigest] {
            hasher.update(data: Data("\(field.utf8.count):\(field)".utf8))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
