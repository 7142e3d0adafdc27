import BlurMetrics
import Foundation
import Testing
@testable import BlurModel

/// The Swift inference against the Python side (models/blur/reference.py, PyTorch) on the committed
/// fixtures: each tile's logit to 1e-4 relative, and the plane's evaluated tiles and probability.
@Suite("Parity with PyTorch on the committed fixtures")
struct BlurModelParityTests {
    /// The paths this CPU runs.
    static let paths: [KernelPath] = KernelPath.avx2Supported ? [.baseline, .avx2] : [.baseline]

    @Test("the fixtures were made with the shipped model, whose digest is its JSON's")
    func fixturesMatchTheModel() throws {
        let fixture = try ParityFixture.load()
        #expect(SHA256.hex(Array(BlurModelWeights.json.utf8)) == BlurModelWeights.sha256)
        #expect(fixture.modelSha256 == BlurModelWeights.sha256)
        #expect(fixture.modelVersion == BlurModel.shipped.version)
        #expect(fixture.tileSize == BlurModel.shipped.tileSize)
        #expect(fixture.tiles.count >= 8)
    }

    @Test("each tile's logit is PyTorch's to 1e-4 relative", arguments: paths)
    func tileLogits(path: KernelPath) throws {
        let fixture = try ParityFixture.load()
        let tiles = try fixture.tiles.map { try #require(Data(base64Encoded: $0.pixels)).map { $0 } }
        let logits = BlurModel.shipped.logits(tiles: tiles, path: path)
        for (tile, logit) in zip(fixture.tiles, logits) {
            #expect(abs(Double(logit) - tile.logit) <= 1e-4 * max(1, abs(tile.logit)), "\(tile.note ?? "tile"): \(logit) against \(tile.logit)")
        }
    }

    @Test("the plane's evaluated tiles and probability are the reference pipeline's", arguments: paths)
    func planeProbability(path: KernelPath) throws {
        let fixture = try ParityFixture.load()
        let png = try GreyPNG(data: try #require(Data(base64Encoded: fixture.plane.png)))
        #expect(png.width == fixture.plane.width && png.height == fixture.plane.height)
        let plane = LumaPlane(width: png.width, height: png.height, pixels: png.pixels)
        let estimate = try #require(BlurModel.shipped.estimate(plane, path: path))
        // The Python side lists the tiles in selection order, the Swift side in row-major order.
        let expected = fixture.plane.evaluated.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        #expect(estimate.tiles.map { [$0.x, $0.y] } == expected.map { [$0.x, $0.y] })
        for (tile, reference) in zip(estimate.tiles, expected) {
            #expect(abs(tile.probability - reference.probability) <= 1e-5, "tile at \(tile.x), \(tile.y)")
        }
        #expect(abs(estimate.probability - fixture.plane.probability) <= 1e-5)
    }
}
