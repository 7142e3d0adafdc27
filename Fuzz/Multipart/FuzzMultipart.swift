import FuzzDriver
import MultipartUpload
import NIOCore

/// The first line is the Content-Type, the rest the body, as an upload arrives; parsing must
/// answer with parts or an error, never crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = ByteBuffer(bytes: bytes[min(newline + 1, bytes.endIndex)...])
    if let form = try? MultipartForm(body: body, contentType: contentType) {
        for part in form.parts.values {
            precondition(part.body.readableBytes <= size, "a part larger than the body")
        }
        _ = form.text("file")
    }
    return 0
}

/// Under libFuzzer (`scripts/fuzz`) fuzzes; otherwise replays the files named.
@main
enum FuzzMultipartMain {
    static func main() {
        let status = pv_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzMultipart(data, size) }
        precondition(status == 0, "the fuzz driver failed with status \(status)")
    }
}
