import BlurMetrics
import Testing
@testable import BlurModel

/// The tile grid, the detail scores against a plain count, and which tiles are chosen.
@Suite("Tile grid and selection")
struct BlurTileGridTests {
    /// The paths this CPU runs.
    static let paths: [KernelPath] = KernelPath.avx2Supported ? [.baseline, .avx2] : [.baseline]

    /// `|4c - up - down - left - right|` summed over the interior of each tile, one pixel at a time.
    private func plainScores(_ pixels: [UInt8], width: Int, grid: BlurTileGrid) -> [Int] {
        (0..<grid.count).map { index in
            let origin = grid.origin(of: index)
            var total = 0
            for y in (origin.y + 1)...(origin.y + grid.size - 2) {
                for x in (origin.x + 1)...(origin.x + grid.size - 2) {
                    let c = Int(pixels[y * width + x])
                    total += abs(4 * c - Int(pixels[(y - 1) * width + x]) - Int(pixels[(y + 1) * width + x]) - Int(pixels[y * width + x - 1]) - Int(pixels[y * width + x + 1]))
                }
            }
            return total
        }
    }

    @Test("the grid is centred, integer margins, row-major")
    func geometry() throws {
        let grid = try #require(BlurTileGrid(width: 200, height: 131, size: 64))
        #expect(grid.columns == 3 && grid.rows == 2 && grid.count == 6)
        #expect(grid.originX == 4 && grid.originY == 1)
        #expect(grid.origin(of: 0) == (4, 1) && grid.origin(of: 2) == (132, 1) && grid.origin(of: 4) == (68, 65))
        let exact = try #require(BlurTileGrid(width: 64, height: 64, size: 64))
        #expect(exact.count == 1 && exact.originX == 0 && exact.originY == 0)
        let odd = try #require(BlurTileGrid(width: 1023, height: 1535, size: 64))
        #expect(odd.columns == 15 && odd.rows == 23 && odd.originX == 31 && odd.originY == 31)
    }

    @Test("a plane under one tile in a side has no grid")
    func smallPlanes() {
        #expect(BlurTileGrid(width: 63, height: 1000, size: 64) == nil)
        #expect(BlurTileGrid(width: 1000, height: 63, size: 64) == nil)
        #expect(BlurTileGrid(width: 0, height: 0, size: 64) == nil)
    }

    @Test("the detail scores are the plain count's at awkward sizes and extremes", arguments: paths)
    func detailScores(path: KernelPath) throws {
        var random = SeededGenerator(seed: 64)
        for (width, height, size) in [(64, 64, 64), (200, 131, 64), (257, 70, 64), (130, 300, 20), (300, 170, 80), (150, 140, 131), (35, 35, 5), (1030, 200, 64)] {
            let noise = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let checkerboard = (0..<(width * height)).map { ($0 % width + $0 / width) % 2 == 0 ? UInt8(255) : 0 }
            let flat = [UInt8](repeating: 200, count: width * height)
            let grid = try #require(BlurTileGrid(width: width, height: height, size: size))
            for pixels in [noise, checkerboard, flat] {
                let scores = pixels.withUnsafeBufferPointer { grid.detailScores(pixels: $0.baseAddress!, width: width, path: path) }
                #expect(scores == plainScores(pixels, width: width, grid: grid), "\(width) x \(height), tiles of \(size)")
            }
        }
    }

    @Test("the checkerboard's tile reaches the largest score, 1020 per interior pixel")
    func largestScore() throws {
        let pixels = (0..<(64 * 64)).map { ($0 % 64 + $0 / 64) % 2 == 0 ? UInt8(255) : 0 }
        let grid = try #require(BlurTileGrid(width: 64, height: 64, size: 64))
        #expect(pixels.withUnsafeBufferPointer { grid.detailScores(pixels: $0.baseAddress!, width: 64) } == [62 * 62 * 1020])
    }

    @Test("the highest scores are chosen, ties to the lower index, in row-major order")
    func selection() {
        #expect(BlurTileGrid.selected(scores: [5, 9, 9, 1, 9, 7], limit: 3) == [1, 2, 4])
        #expect(BlurTileGrid.selected(scores: [5, 9, 9, 1, 9, 7], limit: 2) == [1, 2])
        #expect(BlurTileGrid.selected(scores: [0, 0, 0, 0], limit: 2) == [0, 1])
        #expect(BlurTileGrid.selected(scores: [3, 1, 2], limit: 3) == [0, 1, 2])
        #expect(BlurTileGrid.selected(scores: [3, 1, 2], limit: 16) == [0, 1, 2])
        #expect(BlurTileGrid.selected(scores: [], limit: 16) == [])
        #expect(BlurTileGrid.selected(scores: [1, 2, 3, 4, 5, 6], limit: 4) == [2, 3, 4, 5])
    }
}
