import Foundation
import PhotoChecks
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

/// The blur model's tile map on the report pages: from the answer (and the scores cache) to the
/// page's data, and drawn over the thumbnail in headless Chromium.
@Suite("blur tile maps on the report pages", .timeLimit(.minutes(10)))
struct ReportTileMapTests {
    /// The tiles the blur model evaluates on a `width` by `height` plane (`models/blur/SPEC.md`: 64 px tiles, at most 16).
    private static func expectedTiles(width: Int, height: Int) -> Int {
        min(16, (width / 64) * (height / 64))
    }

    /// A real photo's answer, with its thumbnail as `validate --report` makes it.
    private static func validated(_ name: String) throws -> (output: ValidatePhotoOutput, thumbnail: PreviewImage?) {
        let bytes = try Data(contentsOf: Fixtures.testdata.appendingPathComponent(name))
        let validator = try PhotoValidator(settings: ValidationSettings())
        let checked = bytes.withUnsafeBytes { validator.validateAndPreview($0, as: .inspiration, previews: ReportFolder.thumbnailBounds) }
        return (checked.output, try checked.preview?.get())
    }

    @Test("a real photo's map has the plane's tiles inside it, the same when judged from the scores cache; an answer without tiles has no map")
    func mapOfRealPhoto() throws {
        let (output, _) = try Self.validated("photos/cups.jpg")
        let map = try #require(ReportTileMap(output.details))
        #expect(map.tileSize == 64)
        #expect(map.tiles.count == Self.expectedTiles(width: map.width, height: map.height))
        for tile in map.tiles {
            #expect(tile.x >= 0 && tile.y >= 0 && tile.x + map.tileSize <= map.width && tile.y + map.tileSize <= map.height, "\(tile)")
            #expect((0...1).contains(tile.p))
        }

        let folder = try ScratchFolder()
        let cache = try ScoresCache(path: folder.url.appendingPathComponent("scores.sqlite").path, key: .random())
        let validator = try PhotoValidator(settings: ValidationSettings())
        let bytes = try Data(contentsOf: Fixtures.testdata.appendingPathComponent("photos/cups.jpg"))
        _ = bytes.withUnsafeBytes { cache.validate($0, as: .inspiration, with: validator) }
        let readBack = bytes.withUnsafeBytes { cache.validate($0, as: .inspiration, with: validator) }
        #expect(cache.counts.read == 1)
        #expect(ReportTileMap(readBack.details) == map)

        var without = output.details
        without.blurTileMap = nil
        #expect(ReportTileMap(without) == nil)
    }

    @Test("validate's page draws a real photo's tiles over its thumbnail, inside the plane, with their probabilities; a photo without tiles has no overlay",
          .integration, .enabled(if: HeadlessChromium.available, "chromium is not installed (scripts/setup --test installs it)"))
    func overlayOnValidatePage() async throws {
        let (output, thumbnail) = try Self.validated("photos/cups.jpg")
        var untiled = output.details
        untiled.blurTileMap = nil
        let withoutTiles = ValidatePhotoOutput(failures: output.failures, photoType: untiled.photoType, minimumShortSide: untiled.minimumShortSide, details: untiled)
        let folder = try ScratchFolder()
        let report = folder.url.appendingPathComponent("report")
        var page = try ValidationReport(path: report.path, total: 2, allPassed: true, exposure: ValidationSettings().exposure)
        page.add(path: "tiled/" + ReportPageTests.hostileName, output: output, thumbnail: thumbnail)
        page.add(path: "untiled/cups.jpg", output: withoutTiles, thumbnail: thumbnail)
        var summary = BatchSummary()
        summary.add(output)
        summary.add(withoutTiles)
        _ = try page.finish(summary: summary, arguments: [])

        let loaded = try await HeadlessChromium.load(report.appendingPathComponent("index.html").appendingFragment("all"))
        #expect(loaded.console.isEmpty, "\(loaded.console)")
        #expect(loaded.dom.contains(#"data-status="ready""#))
        #expect(!loaded.dom.contains(#"<img src="x""#))
        let cards = ReportDOM.cards(loaded.dom)
        let tiled = try #require(cards.first { $0.path.hasPrefix("tiled/") })
        let untiledCard = try #require(cards.first { $0.path.hasPrefix("untiled/") })
        #expect(tiled.thumbs.count == 1 && untiledCard.thumbs.count == 1)
        #expect(!untiledCard.body.contains("tilemap"))

        let map = try #require(ReportTileMap(output.details))
        let overlay = try #require(ReportDOM.tileMap(tiled.body))
        #expect(overlay.viewBox == [0, 0, Double(map.width), Double(map.height)])
        #expect(overlay.tiles.count == Self.expectedTiles(width: map.width, height: map.height))
        for tile in overlay.tiles {
            #expect(tile.x >= 0 && tile.y >= 0 && tile.x + tile.width <= Double(map.width) && tile.y + tile.height <= Double(map.height), "\(tile)")
            #expect(tile.width == 64 && tile.height == 64)
            #expect(tile.title.hasPrefix("blur probability "))
        }
        let probability = try #require(output.details.blurProbability)
        #expect(tiled.body.contains("blur_probability " + String(format: "%.3f", probability)))
    }
}
