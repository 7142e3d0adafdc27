import Crypto
import Foundation
import PhotoValidation
import Synchronization

/// A bounded in-memory cache of classifications, keyed by the SHA-256 of the uploaded bytes, the
/// photo type, the model and the prompt version, so a re-uploaded photo is not paid for twice.
/// The oldest entry is evicted first.
package final class ContentCache: Sendable {
    private struct Storage {
        var entries: [String: ProviderAnswer] = [:]
        var order: [String] = []
        var head = 0
    }

    /// Entries kept at most.
    package let capacity: Int
    private let storage = Mutex(Storage())

    /// A cache of at most `capacity` entries (0: nothing is kept).
    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The hex SHA-256 of `bytes`: cheap enough to compute on the worker thread with the preview.
    package static func digest(of bytes: UnsafeRawBufferPointer) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The cache key of an image digest for `photoType` asked of `model` with the current prompt.
    package static func key(digest: String, photoType: PhotoType, model: String) -> String {
        "\(digest)|\(photoType.rawValue)|\(model)|\(ContentPrompt.version)"
    }

    /// Entries held now.
    package var count: Int { storage.withLock { $0.entries.count } }

    /// The answer stored under `key`.
    package func answer(for key: String) -> ProviderAnswer? {
        storage.withLock { $0.entries[key] }
    }

    /// Stores `answer` under `key`, evicting the oldest entry when full.
    package func store(_ answer: ProviderAnswer, for key: String) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            if storage.entries.updateValue(answer, forKey: key) != nil { return }
            storage.order.append(key)
            while storage.entries.count > capacity, storage.head < storage.order.count {
                storage.entries.removeValue(forKey: storage.order[storage.head])
                storage.head += 1
            }
            // Compact the eviction queue now and then rather than shifting it on every eviction.
            if storage.head > capacity {
                storage.order.removeFirst(storage.head)
                storage.head = 0
            }
        }
    }
}
