import BlurMetrics
import Foundation
import Testing
@testable import BlurModel

/// Loading, the packed loops against a plain network in Double, and the photo's pooling.
@Suite("Blur model")
struct BlurModelTests {
    /// The paths this CPU runs.
    static let paths: [KernelPath] = KernelPath.avx2Supported ? [.baseline, .avx2] : [.baseline]

    /// Random tiles: noise, flat (the standard deviation floor), smooth ramps and a step.
    private func tiles(size: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        let count = size * size
        return [
            (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) },
            [UInt8](repeating: 77, count: count),
            (0..<count).map { UInt8(($0 % size) * 255 / max(size - 1, 1)) },
            (0..<count).map { $0 % size < size / 2 ? 10 : 12 },
            (0..<count).map { _ in UInt8.random(in: 100...104, using: &random) },
        ]
    }

    @Test("the shipped model loads within SPEC's budget")
    func shippedModel() {
        let model = BlurModel.shipped
        #expect(model.multiplyAddsPerTile <= 1_000_000)
        #expect(model.maxTiles <= 16 && model.poolSharpest >= 1)
        #expect((0...1).contains(model.thresholdRoom) && (0...1).contains(model.thresholdInspiration))
        #expect(model.tileSize == 64)
    }

    @Test("the packed loops give the plain network's logits", arguments: paths)
    func packedLoops(path: KernelPath) throws {
        let networks = [
            TestNetwork(tileSize: 64, convolutions: [(1, 16, 2), (16, 16, 2), (16, 32, 2), (32, 32, 2)], seed: 1),
            TestNetwork(tileSize: 64, convolutions: [(1, 8, 1), (8, 16, 2), (16, 16, 2), (16, 32, 2)], seed: 2),
            // Channel counts that are not multiples of eight or sixteen, stride 3, odd sides, hidden dense layers.
            TestNetwork(tileSize: 23, convolutions: [(1, 12, 1), (12, 24, 2), (24, 5, 3)], hidden: [7], seed: 3),
            TestNetwork(tileSize: 17, convolutions: [(1, 3, 1), (3, 40, 1), (40, 8, 2)], hidden: [16, 4], seed: 4),
            TestNetwork(tileSize: 9, convolutions: [(1, 1, 1)], seed: 5),
        ]
        for (index, network) in networks.enumerated() {
            let model = try BlurModel(json: network.json)
            let tiles = tiles(size: network.tileSize, seed: UInt64(index))
            for (tile, logit) in zip(tiles, model.logits(tiles: tiles, path: path)) {
                let expected = network.logit(tile: tile)
                #expect(abs(Double(logit) - expected) <= 1e-4 * max(1, abs(expected)), "network \(index): \(logit) against \(expected)")
            }
        }
    }

    @Test("the photo's probability is the mean of the sharpest tiles, fewer when fewer tiles")
    func pooling() {
        #expect(BlurModelEstimate.pooled([0.9, 0.1, 0.5, 0.3], sharpest: 3) == (0.1 + 0.3 + 0.5) / 3)
        #expect(BlurModelEstimate.pooled([0.8, 0.4], sharpest: 3) == (0.8 + 0.4) / 2)
        #expect(BlurModelEstimate.pooled([0.8], sharpest: 3) == 0.8)
        #expect(BlurModelEstimate.pooled([], sharpest: 3) == nil)
    }

    @Test("a plane pools its own tiles: two tiles under pool_sharpest 3, one tile, none")
    func planesOfFewTiles() throws {
        var network = TestNetwork(tileSize: 16, convolutions: [(1, 8, 1), (8, 8, 2)], seed: 9)
        network.maxTiles = 4
        let model = try BlurModel(json: network.json)
        var random = SeededGenerator(seed: 10)
        let two = LumaPlane(width: 40, height: 17, pixels: (0..<(40 * 17)).map { _ in UInt8.random(in: 0...255, using: &random) })
        let estimate = try #require(model.estimate(two))
        #expect(estimate.tiles.map { [$0.x, $0.y] } == [[4, 0], [20, 0]])
        #expect(abs(estimate.probability - (estimate.tiles[0].probability + estimate.tiles[1].probability) / 2) < 1e-12)
        for tile in estimate.tiles {
            let pixels = (0..<256).map { two.pixels[(tile.y + $0 / 16) * 40 + tile.x + $0 % 16] }
            #expect(abs(Double(tile.logit) - network.logit(tile: pixels)) <= 1e-4)
            #expect(tile.probability == BlurModel.probability(logit: tile.logit))
        }
        let one = LumaPlane(width: 16, height: 31, pixels: Array(two.pixels.prefix(16 * 31)))
        let single = try #require(model.estimate(one))
        #expect(single.tiles.count == 1 && single.probability == single.tiles[0].probability)
        #expect(model.estimate(LumaPlane(width: 15, height: 400, pixels: [UInt8](repeating: 0, count: 15 * 400))) == nil)
    }

    @Test("a plane of many tiles evaluates max_tiles of them and pools the lowest pool_sharpest")
    func manyTiles() throws {
        var network = TestNetwork(tileSize: 16, convolutions: [(1, 8, 2)], seed: 11)
        network.maxTiles = 5
        network.poolSharpest = 2
        let model = try BlurModel(json: network.json)
        var random = SeededGenerator(seed: 12)
        let plane = LumaPlane(width: 100, height: 70, pixels: (0..<7000).map { _ in UInt8.random(in: 0...255, using: &random) })
        let estimate = try #require(model.estimate(plane))
        #expect(estimate.tiles.count == 5)
        let grid = try #require(BlurTileGrid(width: 100, height: 70, size: 16))
        let scores = plane.pixels.withUnsafeBufferPointer { grid.detailScores(pixels: $0.baseAddress!, width: 100) }
        let chosen = BlurTileGrid.selected(scores: scores, limit: 5)
        #expect(estimate.tiles.map { [$0.x, $0.y, $0.detail] } == chosen.map { [grid.origin(of: $0).x, grid.origin(of: $0).y, scores[$0]] })
        let lowest = estimate.tiles.map(\.probability).sorted().prefix(2)
        #expect(estimate.probability == lowest.reduce(0, +) / 2)
    }

    @Test("JSON that breaks the contract is refused")
    func refusals() throws {
        let good = TestNetwork(tileSize: 16, convolutions: [(1, 8, 1)], seed: 13).json
        #expect(throws: BlurModelError.self) { try BlurModel(json: "{") }
        #expect(throws: BlurModelError.self) { try BlurModel(json: good.replacingOccurrences(of: "photo-validator-blur-model", with: "other")) }
        #expect(throws: BlurModelError.self) { try BlurModel(json: good.replacingOccurrences(of: "global_average", with: "max_pool")) }
        #expect(throws: BlurModelError.self) { try BlurModel(json: good.replacingOccurrences(of: "\"in\":1,", with: "\"in\":2,")) }
        #expect(throws: BlurModelError.self) { try BlurModel(json: good.replacingOccurrences(of: "\"tile_size\":16", with: "\"tile_size\":2")) }
        var noAverage = TestNetwork(tileSize: 16, convolutions: [(1, 8, 1)], seed: 13)
        noAverage.layers.remove(at: 1)
        #expect(throws: BlurModelError.self) { try BlurModel(json: noAverage.json) }
        var shrunk = TestNetwork(tileSize: 4, convolutions: [(1, 8, 1), (8, 8, 1)], seed: 14)
        shrunk.tileSize = 4
        #expect(throws: BlurModelError.self) { try BlurModel(json: shrunk.json) }
        #expect(try BlurModel(json: good).tileSize == 16)
    }
}
