import FuzzSupport
import MultipartUpload
import NIOCore

/// libFuzzer's entry point: the first line is the Content-Type, the rest the body, as an upload
/// arrives; parsing must answer with parts or an error, never crash or hang.
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

#if !FUZZING
/// Without libFuzzer: replays every file named (or found in folders named) through the target.
@main
enum Replay {
    static func main() {
        FuzzReplay.run(arguments: Array(CommandLine.arguments.dropFirst())) { bytes in
            bytes.withUnsafeBufferPointer { _ = fuzzMultipart($0.baseAddress, $0.count) }
        }
    }
}
#endif
