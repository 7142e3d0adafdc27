import Foundation
import SignalForwarding
import Testing
@testable import SharedStore

/// The replica's cache of parsed fingerprints, driven without threads or a database.
@Suite struct ParsedFingerprintCacheTests {
    private func photo(_ sequence: UInt64, bytes: Int = 10) -> ProjectMemory<String>.Photo {
        .init(photoID: "p\(sequence)", fingerprint: "f\(sequence)", rememberedAt: Date(timeIntervalSince1970: 0), bytes: bytes, sequence: sequence)
    }

    @Test func aProjectReadAgainHoldsWhatItsRowsHoldNow() {
        var cache = ParsedFingerprintCache<String>(budget: 1000)
        cache.replace("a", with: [photo(1), photo(2), photo(3)])
        #expect(cache.photos(of: "a").keys.sorted() == [1, 2, 3])
        // Photo 2 was forgotten on another replica and 4 arrived: the cache follows the rows.
        cache.replace("a", with: [photo(1), photo(3), photo(4)])
        #expect(cache.photos(of: "a").keys.sorted() == [1, 3, 4])
        #expect(cache.bytes == 30)
    }

    @Test func theProjectsReadLeastLatelyGoFirstOverTheBudget() {
        var cache = ParsedFingerprintCache<String>(budget: 50)
        cache.replace("a", with: [photo(1, bytes: 20)])
        cache.replace("b", with: [photo(2, bytes: 20)])
        cache.replace("a", with: [photo(1, bytes: 20)])
        cache.replace("c", with: [photo(3, bytes: 20)])
        #expect(cache.photos(of: "b").isEmpty, "b was read least lately")
        #expect(!cache.photos(of: "a").isEmpty && !cache.photos(of: "c").isEmpty)
        #expect(cache.bytes == 40)
        // A project larger than the whole budget is not kept.
        cache.replace("huge", with: [photo(4, bytes: 80)])
        #expect(cache.photos(of: "huge").isEmpty && cache.bytes <= 50)
    }
}
