import Foundation
import PhotoValidation
import TestFixtures
import Testing
import VipsDecoder

/// The luma paths (libjpeg luma at DCT scale, FFmpeg luma for HEIC) against the RGB decode of the
/// same photo (libjpeg RGB at the same scale; libvips and libheif for HEIC), on every JPEG and HEIC
/// at hand: the verdicts agree and the blur scores stay within the README's tolerance.
@Suite("Luma decode paths agree with the RGB decode")
struct LumaPathFidelityTests {
    /// The largest relative difference in blur score allowed between the two decodes (measured:
    /// median under 0.2%, largest 3.8%, both on inspiration scoring, which judges fewer tiles).
    static let tolerance = 0.05

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

    @Test("same verdicts for room and inspiration, blur scores within 5%")
    func agree() throws {
        if Fixtures.peersRequired {
            try #require(Fixtures.shared != nil, "../shared is missing")
        }
        let settings = ValidationSettings()
        let decoder = try ImageDecoder(pixelLimit: settings.pixelLimit, memoryLimit: settings.decodeMemoryBudget)
        var compared: [ImageFormat: Int] = [:]
        var differences: [Double] = []
        for url in Self.photos() {
            let data = try Data(contentsOf: url)
            func measure(lumaPaths: Bool, as photoType: PhotoType) throws -> BlurMeasurement? {
                guard let image = try? data.withUnsafeBytes({ try decoder.open($0) }) else { return nil }
                let plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, lumaPaths: lumaPaths)
                guard lumaPaths == plan.luma else { return nil }
                return try? BlurMeasurement.measure(image, plan: plan, scale: settings.analysisScale, strongestShare: settings.blurStrongestShare(for: photoType))
            }
            for photoType in [PhotoType.room, .inspiration] {
                guard let luma = try measure(lumaPaths: true, as: photoType) else { break }
                let rgb = try #require(try measure(lumaPaths: false, as: photoType), "\(url.lastPathComponent): the RGB decode failed where luma did not")
                let threshold = settings.blurThreshold(for: photoType)
                #expect((luma.blurScore >= threshold) == (rgb.blurScore >= threshold),
                        "\(url.lastPathComponent) as \(photoType): luma \(luma.blurScore), RGB \(rgb.blurScore), threshold \(threshold)")
                let difference = abs(luma.blurScore - rgb.blurScore) / max(rgb.blurScore, 1e-9)
                differences.append(difference)
                #expect(difference <= Self.tolerance, "\(url.lastPathComponent) as \(photoType): luma \(luma.blurScore), RGB \(rgb.blurScore)")
                #expect(luma.analysisWidth == rgb.analysisWidth && luma.analysisHeight == rgb.analysisHeight)
                if photoType == .room, let format = try? data.withUnsafeBytes({ try decoder.open($0).format }) {
                    compared[format, default: 0] += 1
                }
            }
        }
        print("luma paths vs RGB: \(compared.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", ")); score difference median \(String(format: "%.3f", differences.sorted()[differences.count / 2] * 100))%, largest \(String(format: "%.3f", (differences.max() ?? 0) * 100))%")
        #expect(compared[.jpeg, default: 0] >= 5 && compared[.heif, default: 0] >= 2, "too few photos compared: \(compared)")
    }
}
