import Foundation
import ImageCodecs
import PhotoChecks
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

/// The luma paths (libjpeg luma at DCT scale, FFmpeg luma for HEIC) against the RGB decode of the
/// same photo (libjpeg RGB at the same scale; for HEIC, libheif's own decode through pillow-heif,
/// saved as a PNG, since no HEIC reaches libheif here), on every JPEG and HEIC at hand: the
/// verdicts agree and the blur scores stay within the README's tolerance.
@Suite("Luma decode paths agree with the RGB decode", .integration, .timeLimit(.minutes(10)))
struct LumaPathFidelityTests {
    /// The largest relative difference in blur score allowed between the two decodes of a room
    /// (measured: median under 0.2%).
    static let tolerance = 0.05
    /// The same for an inspiration photo, whose score judges only the sharpest 1% of tiles (a
    /// handful), so a decoder's rounding moves it more (measured: largest 11.9%, a dark desk photo).
    static let inspirationTolerance = 0.15

    /// One photo measured both ways as one photo type.
    struct Comparison: Sendable {
        let name: String
        let format: ImageFormat
        let photoType: PhotoType
        let luma: PlaneMeasurement
        /// The RGB measurement, or why it failed.
        let rgb: Result<PlaneMeasurement, DecodeFailure>
    }

    private static func photos() -> [URL] {
        var folders = [Fixtures.testdata]
        if let shared = Fixtures.shared {
            folders += ["photos", "rooms"].map { shared.appendingPathComponent($0) }
        }
        return folders.flatMap { folder -> [URL] in
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            return (walker?.allObjects as? [URL] ?? []).filter {
                ["jpg", "jpeg", "heic"].contains($0.pathExtension.lowercased())
                    && !$0.path.contains("/hostile/") && !$0.path.contains("/bad-inputs/") && !$0.path.contains("/fuzz-findings/")
            }
        }.sorted { $0.path < $1.path }
    }

    /// Measures every photo whose plan takes a luma path both ways, room and inspiration.
    private static func compare(_ urls: [URL], references: [String: URL]) throws -> [Comparison] {
        let settings = ValidationSettings()
        let decoder = try ImageDecoder(pixelLimit: settings.pixelLimit, memoryLimit: settings.decodeMemoryBudget)
        var comparisons: [Comparison] = []
        for url in urls {
            let data = try Data(contentsOf: url)
            let reference = try references[url.path].map { try Data(contentsOf: $0) }
            // A HEIC has no RGB decode of its own: without pillow-heif there is nothing to compare.
            if url.pathExtension.lowercased() == "heic" && reference == nil { continue }
            func measure(lumaPaths: Bool, as photoType: PhotoType) -> Result<PlaneMeasurement, DecodeFailure>? {
                let source = lumaPaths ? data : reference ?? data
                guard let image = try? source.withUnsafeBytes({ try decoder.open($0) }) else { return nil }
                let plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, lumaPaths: lumaPaths)
                guard lumaPaths == plan.luma else { return nil }
                return Result { () throws(DecodeFailure) in
                    try PlaneMeasurement.measure(image, plan: plan, scale: settings.analysisScale, strongestShare: settings.blurStrongestShare(for: photoType))
                }
            }
            for photoType in [PhotoType.room, .inspiration] {
                guard case .success(let luma)? = measure(lumaPaths: true, as: photoType),
                      let format = try? data.withUnsafeBytes({ try decoder.open($0).format }) else { break }
                let rgb = measure(lumaPaths: false, as: photoType) ?? .failure(DecodeFailure(.corruptPixels, "no RGB plan"))
                comparisons.append(Comparison(name: url.lastPathComponent, format: format, photoType: photoType, luma: luma, rgb: rgb))
            }
        }
        return comparisons
    }

    @Test("same verdicts for room and inspiration, blur scores within 5%")
    func agree() async throws {
        if Fixtures.peersRequired {
            try #require(Fixtures.shared != nil, "../shared is missing")
        }
        let urls = Self.photos()
        let references = try await PillowHEIF.pngCopies(of: urls)
        if Fixtures.peersRequired {
            try #require(!references.isEmpty, "no HEIC was decoded by pillow-heif")
        }
        let comparisons = try await offloaded { try Self.compare(urls, references: references) }
        let settings = ValidationSettings()
        var differences: [Double] = []
        for comparison in comparisons {
            let label = "\(comparison.name) as \(comparison.photoType)"
            guard case .success(let rgb) = comparison.rgb else {
                Issue.record("\(label): the RGB decode failed where luma did not: \(comparison.rgb)")
                continue
            }
            let luma = comparison.luma
            let threshold = settings.blurThreshold(for: comparison.photoType)
            #expect((luma.blurScore >= threshold) == (rgb.blurScore >= threshold), "\(label): luma \(luma.blurScore), RGB \(rgb.blurScore), threshold \(threshold)")
            let difference = abs(luma.blurScore - rgb.blurScore) / max(rgb.blurScore, 1e-9)
            differences.append(difference)
            let tolerance = comparison.photoType == .room ? Self.tolerance : Self.inspirationTolerance
            #expect(difference <= tolerance, "\(label): luma \(luma.blurScore), RGB \(rgb.blurScore)")
            #expect(luma.analysisWidth == rgb.analysisWidth && luma.analysisHeight == rgb.analysisHeight, "\(label)")
        }
        let rooms = comparisons.filter { $0.photoType == .room }
        let counts = Dictionary(grouping: rooms, by: \.format).mapValues(\.count)
        print("luma paths vs RGB: \(counts.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", ")); "
            + "score difference median \(String(format: "%.3f", (differences.sorted().dropFirst(differences.count / 2).first ?? 0) * 100))%, "
            + "largest \(String(format: "%.3f", (differences.max() ?? 0) * 100))%")
        // Without pillow-heif (a bare `swift test` before `scripts/setup --test`) no HEIC has a reference.
        #expect(counts[.jpeg, default: 0] >= 5 && (references.isEmpty || counts[.heif, default: 0] >= 2), "too few photos compared: \(counts)")
    }
}
