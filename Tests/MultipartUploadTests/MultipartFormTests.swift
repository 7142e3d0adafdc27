import Foundation
import NIOCore
import TestFixtures
import Testing
@testable import MultipartUpload

/// Splits a fuzz input into its Content-Type (first line) and body, as `fuzz-multipart` does.
private func fuzzInput(_ path: String) throws -> (contentType: String, body: ByteBuffer) {
    let bytes = Array(try Data(contentsOf: Fixtures.testdataFile(path)))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    return (String(decoding: bytes[..<newline], as: UTF8.self), ByteBuffer(bytes: bytes[min(newline + 1, bytes.endIndex)...]))
}

@Suite("Multipart form parsing", .timeLimit(.minutes(10)))
struct MultipartFormTests {
    @Test("fields and the file part are read by name; the first part of a name wins")
    func parses() throws {
        let input = try fuzzInput("multipart/upload.txt")
        let form = try MultipartForm(body: input.body, contentType: input.contentType)
        #expect(form.text("photo_type") == "inspiration")
        #expect(form.text("note") == "love the light")
        #expect(form["file"]?.body.readableBytes == 22)
    }

    @Test("a file part is a slice of the received body, not a copy of it")
    func fileIsNotCopied() throws {
        let photo = [UInt8](repeating: 0xAB, count: 3 << 20)
        var body = ByteBuffer()
        body.writeString("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n")
        body.writeBytes(photo)
        body.writeString("\r\n--b--\r\n")
        let form = try MultipartForm(body: body, contentType: "multipart/form-data; boundary=b")
        let file = try #require(form["file"]?.body)
        #expect(file.readableBytesView.elementsEqual(photo))
        let received = body.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) ..< UInt(bitPattern: $0.baseAddress! + $0.count) }
        let part = file.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(received.contains(part), "the part's bytes live in the received body's storage")
    }

    @Test("a quoted boundary is unquoted; a missing boundary is an error")
    func boundaries() throws {
        #expect(MultipartForm.boundary(in: "multipart/form-data; boundary=\"a b\"") == "a b")
        let input = try fuzzInput("multipart/no-boundary.txt")
        #expect(throws: MultipartFormError.self) { try MultipartForm(body: input.body, contentType: input.contentType) }
    }

    @Test("every fuzz finding is an error, not a crash", arguments: try FileManager.default.contentsOfDirectory(
        atPath: Fixtures.testdataFile("fuzz-findings/multipart").path
    ))
    func findings(file: String) throws {
        let input = try fuzzInput("fuzz-findings/multipart/\(file)")
        #expect(throws: MultipartFormError.self) { try MultipartForm(body: input.body, contentType: input.contentType) }
    }

    @Test("a UTF-8 file name in a header value is fine; a non-ASCII byte in a header name is refused")
    func headerNames() throws {
        let good = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"café.jpg\"\r\n\r\nxyz\r\n--b--\r\n"
        let form = try MultipartForm(body: ByteBuffer(string: good), contentType: "multipart/form-data; boundary=b")
        #expect(form["file"]?.body.readableBytes == 3)
        let bad = "--b\r\nContent-Dispositioné: form-data; name=\"file\"\r\n\r\nxyz\r\n--b--\r\n"
        #expect(throws: MultipartFormError.self) {
            try MultipartForm(body: ByteBuffer(string: bad), contentType: "multipart/form-data; boundary=b")
        }
    }
}
