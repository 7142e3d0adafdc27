import TestFixtures
import Testing
@testable import BlurMetrics

@Suite("Percentiles and the strongest tiles without a full sort")
struct PercentileTests {
    @Test("a percentile by selection is the sorted array's, ties, repeats and both ends included", arguments: [1, 2, 3, 10, 777, 1001])
    func selectionMatchesSort(count: Int) {
        var generator = SplitMix64(state: UInt64(count))
        for levels in [3, 50, 100_000] {
            let values = (0..<count).map { _ in Double(Int.random(in: 0..<levels, using: &generator)) / 7 }
            for percentile in [0.0, 1, 10, 33.3, 50, 90, 99.9, 100] {
                #expect(Percentile.linear(unsorted: values, percentile) == Percentile.linear(values.sorted(), percentile))
            }
        }
    }

    @Test("the strongest tiles come in the order a stable sort by gradient energy gives, equal energies in tile order, however many are taken")
    func strongestTilesInStableOrder() {
        var generator = SplitMix64(state: 51)
        // Flat tiles (equal energies, the top three rows of tiles) above textured ones, in a 10 x 8 grid of 16 px tiles.
        let width = 160, height = 128
        let pixels = (0..<(width * height)).map { index -> UInt8 in
            index / width < 64 ? 90 : UInt8.random(in: 0...255, using: &generator)
        }
        let detail = OrientedDetail(plane: LumaPlane(width: width, height: height, pixels: pixels), tileSize: 16)
        for k in 0..<4 {
            // Ties in tile order, stated rather than left to the sort's stability.
            let stable = (0..<(detail.columns * detail.rows)).sorted { (detail.gradient[k][$0], -$0) > (detail.gradient[k][$1], -$1) }
            #expect(detail.gradient[k].filter { $0 == 0 }.count >= 20)
            // Taken by selection and then sorted: the first few, a count that ends among the equal
            // (flat) tiles, all but one, and all.
            for taken in [1, 2, 7, 8, 60, 61, 75, stable.count - 1, stable.count] {
                #expect(Array(detail.strongestTiles(orientation: k, taken: taken)) == Array(stable.prefix(taken)), "\(taken) taken")
            }
        }
    }
}
