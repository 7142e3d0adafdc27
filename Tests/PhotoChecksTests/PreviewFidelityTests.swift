import Foundation
import ImageCodecs
import PhotoChecks
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

/// The content check's preview made from the blur check's own decode (JPEG at its DCT scale, HEIC
/// through FFmpeg, PNG and WebP box-reduced from their libvips decode) against libvips' preview of
/// the same picture (the file itself; for HEIC, libheif's decode through pillow-heif as a PNG):
/// same size within a pixel, same orientation, nearly the same pixels, on every photo at hand.
@Suite("Previews from the one decode agree with libvips' previews", .integration, .timeLimit(.minutes(10)))
struct PreviewFidelityTests {
    /// The largest mean absolute difference per sRGB sample allowed (0 to 255).
    static let tolerance = 6.0

    private static func photos() -> [URL] {
        var folders = [Fixtures.testdata.appendingPathComponent("photos")]
        if let shared = Fixtures.shared {
            folders += ["photos", "rooms"].map { shared.appendingPathComponent($0) }
        }
        return folders.flatMap { folder -> [URL] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { ["jpg", "jpeg", "heic", "png", "webp"].contains(($0 as NSString).pathExtension.lowercased()) }.map { folder.appendingPathComponent($0) }
        }.sorted { $0.path < $1.path }
    }

    /// The RGB samples of a preview JPEG, its width and height.
    private static func pixels(_ preview: PreviewImage) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let image = try preview.jpeg.withUnsafeBytes { try ImageDecoder().open($0) }
        var rgb: [UInt8] = []
        var geometry: PixelGeometry?
        try image.decodeStrips(plan: image.plan(targetShortSide: nil, lumaPaths: false)) { geometry = $0 } body: { strip, _, count, stride in
            for row in 0..<count {
                for x in 0..<(geometry!.width) {
                    for band in 0..<3 { rgb.append(strip[row * stride + x * geometry!.bands + min(band, geometry!.bands - 1)]) }
                }
            }
        }
        return (geometry!.width, geometry!.height, rgb)
    }

    @Test("size within 1 px, orientation and pixels the same")
    func agree() async throws {
        if Fixtures.peersRequired {
            try #require(Fixtures.shared != nil, "../shared is missing")
        }
        let urls = Self.photos()
        let references = try await PillowHEIF.pngCopies(of: urls)
        let differences: [(String, Double)] = try await offloaded {
            let validator = try PhotoValidator(settings: ValidationSettings())
            let encoder = try PreviewEncoder()
            var differences: [(String, Double)] = []
            for url in urls {
                let isHEIC = url.pathExtension.lowercased() == "heic"
                guard let source = isHEIC ? references[url.path] : url else { continue }
                let data = try Data(contentsOf: url), sourceData = try Data(contentsOf: source)
                let made = data.withUnsafeBytes { validator.validateAndPreview($0, as: .inspiration, previews: encoder.bounds) }
                // A photo refused as invalid gets no preview at all (libvips would preview a corrupt JPEG).
                if made.output.failures == [.invalidImage] { continue }
                guard let preview = try made.preview?.get() else {
                    Issue.record("\(url.lastPathComponent): no preview: \(made.output.details.errorDetail ?? "")")
                    continue
                }
                let format: ImageFormat = switch url.pathExtension.lowercased() {
                case "png", "heic": .png
                case "webp": .webp
                default: .jpeg
                }
                let reference: PreviewImage
                do {
                    reference = try sourceData.withUnsafeBytes { try encoder.preview(of: $0, format: format) }
                } catch {
                    // Two real room PNGs of ../shared: libvips' second decode fails where the one decode did not; nothing to compare.
                    print("\(url.lastPathComponent): no libvips preview to compare with (\(error)); the preview from the one decode is \(preview.width)x\(preview.height)")
                    continue
                }
                #expect(abs(preview.width - reference.width) <= 1 && abs(preview.height - reference.height) <= 1,
                        "\(url.lastPathComponent): \(preview.width)x\(preview.height) against \(reference.width)x\(reference.height)")
                let ours = try Self.pixels(preview), theirs = try Self.pixels(reference)
                var sum = 0, count = 0
                for y in 0..<min(ours.height, theirs.height) {
                    for x in 0..<min(ours.width, theirs.width) {
                        for band in 0..<3 {
                            sum += abs(Int(ours.rgb[(y * ours.width + x) * 3 + band]) - Int(theirs.rgb[(y * theirs.width + x) * 3 + band]))
                            count += 1
                        }
                    }
                }
                differences.append((url.lastPathComponent, Double(sum) / Double(max(count, 1))))
            }
            return differences
        }
        for (name, difference) in differences {
            #expect(difference <= Self.tolerance, "\(name): mean |difference| \(difference)")
        }
        let sorted = differences.map(\.1).sorted()
        print("previews from one decode vs libvips: \(differences.count) photos, mean |difference| median \(String(format: "%.2f", sorted.isEmpty ? 0 : sorted[sorted.count / 2])), largest \(String(format: "%.2f", sorted.last ?? 0)) (\(differences.max { $0.1 < $1.1 }?.0 ?? ""))")
        #expect(differences.count >= 10, "too few photos compared")
        if Fixtures.peersRequired {
            #expect(!references.isEmpty, "no HEIC compared")
        }
    }
}
