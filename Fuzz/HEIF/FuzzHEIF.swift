import FuzzDriver
import ImageCodecs
import PhotoStructure

/// The HEIC path alone: the Swift HEIF reader and FFmpeg's HEVC decoder, with the preview planes
/// kept, so mutations of the seed lies and photos spend their time in HEIF structure.
let decoder = try! ImageDecoder(pixelLimit: 40_000_000)
let previews = try! PreviewEncoder()

/// Reads and decodes the bytes as a HEIC; any crash or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard FormatSniffer.sniff(bytes) == .format(.heif), let image = try? decoder.open(bytes) else { return 0 }
    let plan = image.plan(targetShortSide: 1024, preview: previews)
    var rows = 0
    do {
        try image.decodeStrips(plan: plan) { geometry in
            precondition(geometry.width == image.header.width && geometry.height == image.header.height, "the strips are not the header's picture")
        } body: { _, first, count, _ in
            precondition(first == rows, "strips out of order")
            rows += count
        }
    } catch {
        return 0
    }
    precondition(rows == image.header.height, "the strips do not cover the picture")
    _ = try? image.preview(using: previews)
    return 0
}

/// Under libFuzzer (`scripts/fuzz`) fuzzes; otherwise replays the files named.
@main
enum FuzzHEIFMain {
    static func main() {
        let status = pv_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzHEIF(data, size) }
        precondition(status == 0, "the fuzz driver failed with status \(status)")
    }
}
