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

    @Test("a boundary over RFC 2046's 70 characters, or with a character it does not allow, is refused as a bad boundary")
    func boundaryLimits() throws {
        let seventy = String(repeating: "a", count: 70)
        #expect(try MultipartForm.checkedBoundary(in: "multipart/form-data; boundary=\(seventy)") == seventy)
        #expect(try MultipartForm.checkedBoundary(in: "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW") == "----WebKitFormBoundary7MA4YWxkTrZu0gW")
        for bad in [String(repeating: "a", count: 71), String(repeating: "-", count: 8000), "a\u{1}b", "ab ", "caf\u{E9}"] {
            let error = try #require(throws: MultipartFormError.self) {
                try MultipartForm(body: ByteBuffer(string: "--x\r\n"), contentType: "multipart/form-data; boundary=\"\(bad)\"")
            }
            #expect(error.kind == .badBoundary)
        }
        let missing = try #require(throws: MultipartFormError.self) { try MultipartForm.checkedBoundary(in: "multipart/form-data") }
        #expect(missing.kind == .badBoundary)
    }

    @Test("the delimiter search finds what a naive search finds, at every offset")
    func findMatchesNaiveSearch() {
        let haystack = Array("--a--ab--abc\r\n--abc--abcd".utf8)
        for needle in ["--abc", "--a", "d", "--abcd", "x", "--abcde"].map({ Array($0.utf8) }) {
            for from in 0...haystack.count {
                let naive = from + needle.count <= haystack.count
                    ? (from...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
                    : nil
                let found = haystack.withUnsafeBytes { MultipartForm.find(needle, in: $0, from: from) }
                #expect(found == naive, "needle \(needle) from \(from)")
            }
        }
    }
}
