import DecodeSandbox
import PhotoStructure
import Testing

@Suite("A photo's time limit follows its declared size and format")
struct PhotoTimeLimitTests {
    @Test("a small file declaring a small picture gets a small part of the timeout; a larger one more; none past the ceiling")
    func limits() {
        let limits = PhotoTimeLimit(ceiling: .seconds(300))
        let tiny = limits.limit(for: DeclaredSize(format: .webp, width: 1, height: 1), byteCount: 5_000_000)
        let twelve = limits.limit(for: DeclaredSize(format: .jpeg, width: 4000, height: 3000), byteCount: 4_000_000)
        let fortyEight = limits.limit(for: DeclaredSize(format: .jpeg, width: 8000, height: 6000), byteCount: 16_000_000)
        let png = limits.limit(for: DeclaredSize(format: .png, width: 8000, height: 6000), byteCount: 16_000_000)
        #expect(tiny < twelve && twelve < fortyEight && fortyEight < png)
        // The base, the megabytes and the megapixels, in that proportion (a debug build scales all three).
        #expect((fortyEight - limits.base) / (twelve - limits.base) > 3.9 && (fortyEight - limits.base) / (twelve - limits.base) < 4.1)
        #expect(limits.limit(for: nil, byteCount: 1_000) < twelve)
        let capped = PhotoTimeLimit(ceiling: .seconds(3))
        #expect(capped.limit(for: DeclaredSize(format: .png, width: 10_000, height: 10_000), byteCount: 20_000_000) == .seconds(3))
    }
}
