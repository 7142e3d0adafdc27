import Foundation
import ImageCodecs
@testable import PhotoChecks
import PhotoFormat
import PhotoStructure
import PhotoValidation
import TestFixtures
import Testing

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Issue 50: the daemon reserves a photo's least decode memory from its declared size
/// (`DecodeMemory.least`) before a worker takes it, and the worker reserves what its decoder's plan
/// needs (`InProcessChecks.memoryNeed`). The daemon's figure must never be the larger, or a photo
/// the worker would decode is refused for memory before it gets there: for real files of every
/// format, kind (grey, CMYK, 16-bit, palette, alpha, interlaced, progressive, lossless, rotated)
/// and shape, and every plan the worker makes of them (with and without a preview, on one thread
/// or four, the finer second look), the worker's need is at least the daemon's, and both count
/// the measurement by the same size (a HEIC by its coded picture, a little larger).
@Suite("The daemon's least decode memory never exceeds the worker's", .integration, .timeLimit(.minutes(10)))
struct DecodeMemoryAgreementTests {
    /// Shapes written in every format, both ways round: from a strip to 12 megapixels.
    static let shapes: [(width: Int, height: Int)] = [
        (1, 2000), (16, 4000), (300, 400), (1023, 1025), (1365, 1024), (3000, 2000),
    ]

    /// Kinds Pillow writes at every shape: (file suffix, the `save` call's Python).
    static let kinds: [(suffix: String, save: String)] = [
        ("baseline.jpg", "rgb.save(path, quality=90)"),
        ("progressive.jpg", "rgb.save(path, quality=90, progressive=True)"),
        ("grey.jpg", "rgb.convert('L').save(path, quality=90)"),
        ("444.jpg", "rgb.save(path, quality=90, subsampling=0)"),
        ("cmyk.jpg", "rgb.convert('CMYK').save(path, quality=90)"),
        ("rgb.png", "rgb.save(path)"),
        ("rgba.png", "rgb.convert('RGBA').save(path)"),
        ("grey16.png", "Image.fromarray((grey.astype(np.uint16) * 257), 'I;16').save(path)"),
        ("palette.png", "rgb.convert('P').save(path)"),
        ("lossy.webp", "rgb.save(path, quality=80)"),
        ("alpha.webp", "rgb.convert('RGBA').save(path, quality=80)"),
        ("lossless.webp", "rgb.save(path, lossless=True)"),
        ("rgb.heic", "import pillow_heif; pillow_heif.register_heif_opener(); rgb.save(path, quality=80)"),
    ]

    /// The committed variants and photos: interlaced and EXIF-rotated files, a grid HEIC, real photos.
    static let committed: [URL] = {
        let skipped = ["bomb-144mp.png"]
        var files: [URL] = []
        for folder in ["variants", "photos"] {
            let url = Fixtures.testdataFile(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            files += names.sorted().filter { !$0.hasPrefix("truncated") && !skipped.contains($0) }.map { url.appendingPathComponent($0) }
        }
        return files
    }()

    /// Pillow writes every kind at every shape into `folder`; a combination the encoder refuses is left out and named.
    static func write(into folder: URL) async throws -> [URL] {
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            folder, arguments = sys.argv[1], sys.argv[2:]
            for suffix, save, width, height in zip(arguments[0::4], arguments[1::4], arguments[2::4], arguments[3::4]):
                width, height = int(width), int(height)
                y, x = np.mgrid[0:height, 0:width]
                grey = (((x * 37) ^ (y * 11) ^ ((x * y) >> 3)) & 255).astype(np.uint8)
                rgb = Image.fromarray(np.stack([grey, (grey + 40) & 255, (grey * 3) & 255], axis=-1).astype(np.uint8), "RGB")
                path = f"{folder}/{width}x{height}-{suffix}"
                try:
                    exec(save)
                except Exception as error:
                    print(f"{path}: {error}", file=sys.stderr)
            """
        var arguments = ["-c", script, folder.path]
        for kind in kinds {
            for shape in shapes {
                for (width, height) in Set([[shape.width, shape.height], [shape.height, shape.width]]) .map({ ($0[0], $0[1]) }) {
                    arguments += [kind.suffix, kind.save, String(width), String(height)]
                }
            }
        }
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        if !outcome.standardError.isEmpty { print("the encoder refused: \(outcome.standardError)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Checks `file` with the default settings; returns the format it was read as.
    static func check(_ file: URL, settings: ValidationSettings) throws -> ImageFormat {
        let data = try Data(contentsOf: file)
        let scale = settings.analysisScale
        let declared = try #require(data.withUnsafeBytes { DeclaredSize($0) }, "\(file.lastPathComponent) declares no size")
        let least = DecodeMemory.least(declared, scale: scale)
        let encoder = try PreviewEncoder(bounds: PreviewBounds())
        let decoder = try ImageDecoder(pixelLimit: settings.pixelLimit, memoryLimit: settings.decodeMemoryBudget, costCaps: settings.decodeCostCaps)
        let image = try data.withUnsafeBytes { bytes throws(DecodeFailure) in try decoder.open(bytes) }
        let header = image.header
        #expect(declared.format == header.format, "\(file.lastPathComponent)")
        // The measurement is counted by the same size on both sides; a HEIC declares its coded
        // picture, which the codec pads by up to 64 px a side past the displayed one, so the daemon
        // counts a little more there, never less.
        if declared.format == .heif {
            #expect(declared.width >= header.storedWidth && declared.width < header.storedWidth + 64
                        && declared.height >= header.storedHeight && declared.height < header.storedHeight + 64,
                    "\(file.lastPathComponent): declared \(declared.width)x\(declared.height), displayed \(header.storedWidth)x\(header.storedHeight)")
        } else {
            #expect(declared.width == header.storedWidth && declared.height == header.storedHeight,
                    "\(file.lastPathComponent): declared \(declared.width)x\(declared.height), stored \(header.storedWidth)x\(header.storedHeight)")
        }
        var targets = [scale.targetShortestSide]
        if let finer = scale.decodeShortestSide { targets.append(finer) }
        for target in targets {
            for preview in [nil, encoder] {
                for threads in [1, 4] {
                    let plan = image.plan(targetShortSide: target, preview: preview, threads: threads)
                    let need = InProcessChecks.memoryNeed(plan, header: header, scale: scale)
                    #expect(least <= need, """
                        \(file.lastPathComponent) (\(plan.decoder), scale \(plan.scaleNumerator)/8, preview \(preview != nil), \(threads) threads): \
                        the daemon reserves \(least) bytes, the worker \(need)
                        """)
                }
            }
        }
        return header.format
    }

    @Test("every committed variant and photo: the worker's need is at least the daemon's")
    func committedFiles() throws {
        let settings = ValidationSettings()
        var formats = Set<ImageFormat>()
        for file in Self.committed {
            formats.insert(try Self.check(file, settings: settings))
        }
        #expect(formats == Set(ImageFormatProfile.all.map(\.format)), "every accepted format is among the committed files")
    }

    @Test("every kind Pillow writes, at every shape both ways round: the worker's need is at least the daemon's",
          .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow and pillow-heif (scripts/setup --test)"))
    func writtenShapes() async throws {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("decode-memory-agreement"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try await Self.write(into: folder)
        // Pillow refuses a few combinations (a 16-bit grey PNG one pixel high); nearly all are written.
        #expect(files.count * 10 >= Self.kinds.count * (2 * Self.shapes.count) * 9, "\(files.count) files written")
        let settings = ValidationSettings()
        var formats = Set<ImageFormat>()
        for file in files {
            formats.insert(try await offloaded { try Self.check(file, settings: settings) })
        }
        #expect(formats == Set(ImageFormatProfile.all.map(\.format)))
    }
}
