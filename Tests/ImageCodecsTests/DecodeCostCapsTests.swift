import Foundation
@testable import ImageCodecs
import PhotoFormat
@testable import PhotoStructure
import TestFixtures
import Testing

/// The bytes of `url`.
private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

/// The reason `bytes` are refused when opened, or nil when they open.
private func openFailure(_ bytes: [UInt8], caps: DecodeCostCaps = DecodeCostCaps()) throws -> DecodeFailure? {
    do {
        _ = try bytes.withUnsafeBytes { try ImageDecoder(costCaps: caps).open($0) }
        return nil
    } catch let failure as DecodeFailure {
        return failure
    }
}

/// Every photo of testdata/photos and, when present, ../shared/photos and ../shared/rooms.
private func realPhotos() -> [URL] {
    var folders = [Fixtures.testdataFile("photos")]
    if let shared = Fixtures.shared {
        folders += [shared.appendingPathComponent("photos"), shared.appendingPathComponent("rooms")]
    }
    let formats: Set<String> = ["jpg", "jpeg", "png", "webp", "heic"]
    return folders.flatMap { folder -> [URL] in
        guard let names = try? FileManager.default.subpathsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { formats.contains(($0 as NSString).pathExtension.lowercased()) }.map { folder.appendingPathComponent($0) }
    }
}

@Suite("Decode cost caps: what a file's structure may ask of a decoder", .integration, .timeLimit(.minutes(10)))
struct DecodeCostCapsTests {
    @Test("a JPEG flooded with empty metadata segments is refused before any decoder runs")
    func jpegSegmentFlood() throws {
        let cups = try bytes(Fixtures.testdataFile("photos/cups.jpg"))
        #expect(try openFailure(CostlyFiles.jpegSegmentFlood(cups, count: 100)) == nil, "a hundred segments is within the cap")
        let failure = try #require(try openFailure(CostlyFiles.jpegSegmentFlood(cups, count: 50_000)))
        #expect(failure.reason == .costlyStructure)
        #expect(failure.message.contains("marker segments"))
        let icc = try #require(try openFailure(CostlyFiles.jpegSegmentFlood(cups, count: 50_000, marker: 0xE2)))
        #expect(icc.reason == .costlyStructure)
    }

    @Test("a JPEG with more scans than the cap is refused whatever its colour space")
    func jpegScanFlood() throws {
        let cups = try bytes(Fixtures.testdataFile("photos/cups.jpg"))
        let failure = try #require(try openFailure(CostlyFiles.jpegScanFlood(cups, count: 3000)))
        #expect(failure.reason == .costlyStructure)
        #expect(failure.message.contains("progressive scans"))
        var caps = DecodeCostCaps()
        caps.jpegScans = 5000
        caps.jpegSegments = 10_000
        #expect(try openFailure(CostlyFiles.jpegScanFlood(cups, count: 3000), caps: caps)?.reason != .costlyStructure, "the cap is a setting")
    }

    @Test("a JPEG carrying more metadata than the cap is refused")
    func jpegMetadataFlood() throws {
        let cups = try bytes(Fixtures.testdataFile("photos/cups.jpg"))
        var caps = DecodeCostCaps()
        caps.metadataBytes = 1 << 20
        let failure = try #require(try openFailure(CostlyFiles.jpegMetadataFlood(cups, bytes: 2 << 20), caps: caps))
        #expect(failure.reason == .costlyStructure && failure.message.contains("metadata"))
    }

    @Test("a PNG with a chunk flood or more compressed data than its picture can need is refused")
    func pngCaps() throws {
        let png = try bytes(Fixtures.testdataFile("photos/small-coffee.png"))
        #expect(try openFailure(CostlyFiles.pngChunkFlood(png, count: 50)) == nil)
        let flood = try #require(try openFailure(CostlyFiles.pngChunkFlood(png, count: 30_000)))
        #expect(flood.reason == .costlyStructure && flood.message.contains("chunks"))
        let padded = try #require(try openFailure(CostlyFiles.pngPaddedData(png, bytes: 4 << 20)))
        #expect(padded.reason == .costlyStructure && padded.message.contains("compressed data"))
    }

    @Test("an animated WebP is refused past the frame cap or when a frame lies about the canvas; a short animation decodes")
    func webpCaps() throws {
        let webp = try bytes(Fixtures.testdataFile("variants/same-small.webp"))
        let animation = try #require(CostlyFiles.webpFrameFlood(webp, frames: 100))
        #expect(try openFailure(animation) == nil, "a 100-frame animation is a photo like any other")
        let floodFile = try #require(CostlyFiles.webpFrameFlood(webp, frames: 5000))
        let flood = try #require(try openFailure(floodFile))
        #expect(flood.reason == .costlyStructure && flood.message.contains("frames"))
        let lieFile = try #require(CostlyFiles.webpFrameFlood(webp, frames: 2, canvasLie: true))
        let lie = try #require(try openFailure(lieFile))
        #expect(lie.reason == .costlyStructure && lie.message.contains("canvas"))
    }

    @Test("every real photo at hand is far within every cap")
    func realPhotosPass() async throws {
        let caps = DecodeCostCaps()
        let photos = realPhotos()
        #expect(photos.count >= 15)
        // On a thread of its own: a hundred files read and scanned would hold a cooperative thread.
        let (largest, refused) = try await offloaded { () -> ((segments: Int, scans: Int, metadata: Int, pngChunks: Int), [String]) in
            var largest = (segments: 0, scans: 0, metadata: 0, pngChunks: 0)
            var refused: [String] = []
            for url in photos {
                let data = try bytes(url)
                data.withUnsafeBytes { raw in
                    switch FormatSniffer.sniff(raw) {
                    case .format(.jpeg):
                        let structure = JPEGStructure(raw, stoppingPast: caps)
                        largest.segments = max(largest.segments, structure.segments)
                        largest.scans = max(largest.scans, structure.scans)
                        largest.metadata = max(largest.metadata, structure.metadataBytes)
                    case .format(.png):
                        let structure = PNGStructure(raw, stoppingPast: caps)
                        largest.pngChunks = max(largest.pngChunks, structure.chunks)
                        largest.metadata = max(largest.metadata, structure.metadataBytes)
                    default:
                        break
                    }
                    do {
                        try caps.check(raw, format: DeclaredSize(raw)?.format ?? .jpeg)
                    } catch {
                        refused.append("\(url.lastPathComponent): \(error)")
                    }
                }
            }
            return (largest, refused)
        }
        #expect(refused.isEmpty, "\(refused)")
        // Room to spare: a quarter of each cap at most.
        #expect(largest.segments * 4 <= caps.jpegSegments && largest.scans * 4 <= caps.jpegScans)
        #expect(largest.metadata * 4 <= caps.metadataBytes && largest.pngChunks * 4 <= caps.pngChunks)
        print("largest real structure: \(largest)")
    }

    @Test("the declared size read in Swift matches libvips' header for every real photo")
    func declaredSize() async throws {
        let mismatches = try await offloaded { () -> [String] in
            var mismatches: [String] = []
            for url in realPhotos() {
                let data = try bytes(url)
                guard let declared = data.withUnsafeBytes({ DeclaredSize($0) }) else {
                    mismatches.append("\(url.lastPathComponent): no declared size")
                    continue
                }
                let header = try open(url).header
                let matches = declared.format == header.format && (header.format == .heif
                    // The container's picture, before any crop: at least what is displayed.
                    ? declared.pixels >= header.pixelCount
                    : declared.width == header.storedWidth && declared.height == header.storedHeight)
                if !matches { mismatches.append("\(url.lastPathComponent): \(declared) vs \(header)") }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
