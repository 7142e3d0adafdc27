import Foundation
import MultipartKit
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of a `multipart/form-data` body, by field name (the first part of each name wins).
///
/// Kept apart from the HTTP layer, with nothing but MultipartKit beneath it, so the parsing of
/// untrusted bodies can be fuzzed on its own.
package struct MultipartForm: Sendable {
    /// Parts by field name.
    package private(set) var parts: [String: MultipartPart] = [:]

    /// Parses `body` using the boundary in `contentType`.
    ///
    /// - Throws: `MultipartFormError` when the boundary is missing or the body is malformed.
    package init(body: ByteBuffer, contentType: String) throws(MultipartFormError) {
        let boundary = try Self.checkedBoundary(in: contentType)
        try Self.checkHeaderNames(body, boundary: boundary)
        let parser = MultipartParser(boundary: boundary)
        var current = MultipartPart(headers: [:], body: ByteBuffer())
        var collected: [MultipartPart] = []
        parser.onHeader = { name, value in current.headers.add(name: name, value: value) }
        // Parsed from one complete buffer, a part's body arrives as one slice of it: kept as that
        // slice (shared storage), it is not copied; only a body in several pieces is joined.
        parser.onBody = { chunk in
            if current.body.readableBytes == 0 {
                current.body = chunk
            } else {
                current.body.writeBuffer(&chunk)
            }
        }
        parser.onPartComplete = {
            collected.append(current)
            current = MultipartPart(headers: [:], body: ByteBuffer())
        }
        do {
            try parser.execute(body)
        } catch {
            throw MultipartFormError("the multipart body could not be parsed: \(error)")
        }
        for part in collected {
            if let name = part.name, parts[name] == nil {
                parts[name] = part
            }
        }
    }

    /// Refuses a body in which a part's header name holds a byte outside ASCII: MultipartKit
    /// 4.7.1 looks such bytes up in a 128-entry table and traps, which would take the whole daemon
    /// down (found by `fuzz-multipart`). Header values (a UTF-8 file name) are not affected.
    static func checkHeaderNames(_ body: ByteBuffer, boundary: String) throws(MultipartFormError) {
        // Scanned in place: a copy of a 20 MB body just to read its part headers would double it.
        let delimiter = Array("--\(boundary)".utf8)
        let outcome = body.withUnsafeReadableBytes { bytes in
            Result { () throws(MultipartFormError) in try checkHeaderNames(bytes, delimiter: delimiter) }
        }
        try outcome.get()
    }

    private static func checkHeaderNames(_ bytes: UnsafeRawBufferPointer, delimiter: [UInt8]) throws(MultipartFormError) {
        var index = 0
        while let start = Self.find(delimiter, in: bytes, from: index) {
            // The rest of the delimiter line, then header lines up to the blank one. Lines end at
            // CR, as MultipartKit reads them (a bare LF belongs to the line).
            var position = start + delimiter.count
            while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
            position += 1
            while position < bytes.count && bytes[position] != UInt8(ascii: "\r") {
                var inName = true
                while position < bytes.count && bytes[position] != UInt8(ascii: "\r") {
                    if bytes[position] == UInt8(ascii: ":") { inName = false }
                    if inName && bytes[position] >= 0x80 {
                        throw MultipartFormError("a part's header name holds a byte outside ASCII (0x\(String(bytes[position], radix: 16)))")
                    }
                    position += 1
                }
                position += 2
            }
            index = max(position, start + 1)
        }
    }

    /// The first index at or after `from` where `needle` starts in `haystack`.
    ///
    /// Knuth-Morris-Pratt, with `memchr` skipping to the needle's first byte between partial
    /// matches: linear in the haystack whatever the needle. A naive search cost body size times
    /// boundary length, minutes of daemon CPU for a 19 MB body and an 8,000-character boundary.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard !needle.isEmpty, let base = haystack.baseAddress, from >= 0, haystack.count >= needle.count,
              from <= haystack.count - needle.count else { return nil }
        // failure[i]: the length of the longest proper prefix of needle[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<max(1, needle.count) where needle.count > 1 {
            while length > 0 && needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        var index = from
        let count = haystack.count
        while index < count {
            if matched == 0 {
                guard let found = memchr(base + index, Int32(needle[0]), count - index) else { return nil }
                index = base.distance(to: UnsafeRawPointer(found))
            }
            let byte = haystack[index]
            while matched > 0 && byte != needle[matched] { matched = failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
            index += 1
        }
        return nil
    }

    /// The part named `name`, or nil.
    package subscript(name: String) -> MultipartPart? {
        parts[name]
    }

    /// The text of the part named `name`, or nil when absent.
    package func text(_ name: String) -> String? {
        parts[name].map { String(decoding: $0.body.readableBytesView, as: UTF8.self) }
    }

    /// True when `contentType` is `multipart/form-data`.
    package static func isMultipart(_ contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("multipart/form-data") == true
    }

    /// The longest boundary RFC 2046 allows.
    package static let maximumBoundaryLength = 70

    /// The boundary of `contentType`, checked against RFC 2046 before any byte of the body is read:
    /// present, 1 to 70 characters, and only the characters the RFC allows (`bchars`).
    ///
    /// - Throws: `MultipartFormError` of kind `.badBoundary`, saying what is wrong.
    package static func checkedBoundary(in contentType: String) throws(MultipartFormError) -> String {
        guard let boundary = boundary(in: contentType) else {
            throw MultipartFormError("multipart/form-data needs a boundary parameter in Content-Type", kind: .badBoundary)
        }
        let length = boundary.utf8.count
        guard length <= maximumBoundaryLength else {
            throw MultipartFormError(
                "the multipart boundary is \(length) characters long; RFC 2046 allows at most \(maximumBoundaryLength). Let your HTTP client choose the boundary",
                kind: .badBoundary
            )
        }
        // bchars: DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?" and space (not last).
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        guard boundary.utf8.allSatisfy(allowed.contains), boundary.utf8.last != UInt8(ascii: " ") else {
            throw MultipartFormError(
                "the multipart boundary holds a character RFC 2046 does not allow (only letters, digits, space and '()+_,-./:=? are)",
                kind: .badBoundary
            )
        }
        return boundary
    }

    /// The `boundary` parameter of a Content-Type value, unquoted.
    package static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}
