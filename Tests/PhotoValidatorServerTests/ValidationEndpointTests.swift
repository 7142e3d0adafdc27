import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhotoValidation
import TestFixtures
import Testing
@testable import PhotoValidatorServer

@Suite("POST /v1/validate", .integration, .timeLimit(.minutes(10)))
struct ValidationEndpointTests {
    @Test("a raw JPEG body passes with the contract's fields and details")
    func rawBodyPasses() async throws {
        try await withLiveApp { client, _ in
            let response = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post,
                                                    headers: [.contentType: "image/jpeg"], body: try testdataBytes("photos/cups.jpg"))
            #expect(response.status == .ok)
            let object = try jsonObject(response)
            #expect(Set(object.keys) == ["passed", "failures", "messages", "details"])
            #expect(object["passed"] as? Bool == true)
            #expect(object["failures"] as? [String] == [])
            #expect(object["messages"] as? [String] == ["Photo looks great!"])
            let details = try #require(object["details"] as? [String: Any])
            #expect(details["format"] as? String == "jpeg")
            #expect(details["width"] as? Int == 2560 && details["height"] as? Int == 1600)
            #expect(details["blur_score"] is Double && details["laplacian_variance"] is Double)
        }
    }

    @Test("multipart with a file part and photo_type field")
    func multipartBody() async throws {
        try await withLiveApp { client, _ in
            var form = MultipartBody()
            form.field("photo_type", "inspiration")
            form.file("file", filename: "coffee.png", contentType: "image/png", bytes: try testdataBytes("photos/small-coffee.png"))
            let (headers, body) = form.finished()
            let response = try await client.execute(uri: "/v1/validate", method: .post, headers: headers, body: body)
            #expect(response.status == .ok)
            let object = try jsonObject(response)
            #expect(object["passed"] as? Bool == true)
            #expect((object["details"] as? [String: Any])?["photo_type"] as? String == "inspiration")
        }
    }

    @Test("every failure code the checks produce has its contract message over HTTP")
    func codesAndMessages() async throws {
        // Blur verdicts are set here (every room blurry, no inspiration photo): this is about the
        // codes and their messages, not where a photo's score falls.
        try await withLiveApp({ $0.validation.roomBlurThreshold = 1e9; $0.validation.inspirationBlurThreshold = 0 }) { client, _ in
            let cases: [(String, String, [String], [String])] = [
                ("bad-inputs/text-named.jpg", "room", ["invalid_image"], ["Could not open image. Please upload a valid JPEG, PNG, HEIC or WebP photo."]),
                ("photos/small-coffee.png", "inspiration", [], ["Photo looks great!"]),
                ("photos/small-cat.png", "inspiration", ["low_resolution"], ["This inspiration photo is too small (minimum 400px). Please choose a larger image."]),
                ("photos/small-coffee.png", "room", ["low_resolution", "blurry"], [
                    "This photo is too low resolution. Please use a higher quality image.",
                    "This photo looks blurry. Please retake with a steady hand.",
                ]),
            ]
            for (file, photoType, failures, messages) in cases {
                let response = try await client.execute(uri: "/v1/validate?photo_type=\(photoType)", method: .post,
                                                        headers: [.contentType: "application/octet-stream"], body: try testdataBytes(file))
                #expect(response.status == .ok)
                let object = try jsonObject(response)
                #expect(object["failures"] as? [String] == failures, "\(file) as \(photoType)")
                #expect(object["messages"] as? [String] == messages, "\(file) as \(photoType)")
                #expect(object["passed"] as? Bool == failures.isEmpty)
            }
        }
    }

    @Test("an inspiration photo that is blurry gets the inspiration message")
    func inspirationBlurry() async throws {
        try await withLiveApp({ $0.validation.inspirationBlurThreshold = 1e9 }) { client, _ in
            let response = try await client.execute(uri: "/v1/validate?photo_type=inspiration", method: .post, body: try testdataBytes("photos/small-coffee.png"))
            let object = try jsonObject(response)
            #expect(object["failures"] as? [String] == ["blurry"])
            #expect(object["messages"] as? [String] == ["This photo looks too blurry. Please choose a clearer image."])
        }
    }

    @Test("an unknown or empty photo_type is 422 validation_error")
    func badPhotoType() async throws {
        try await withLiveApp { client, _ in
            for value in ["kitchen", "", "ROOM"] {
                let response = try await client.execute(uri: "/v1/validate?photo_type=\(value)", method: .post, body: try testdataBytes("photos/cups.jpg"))
                try expectError(response, status: .unprocessableContent, code: "validation_error")
            }
            // A form with its own valid photo_type does not excuse a bad one in the query.
            var form = MultipartBody()
            form.field("photo_type", "room")
            form.file("file", filename: "cups.jpg", contentType: "image/jpeg", bytes: try testdataBytes("photos/cups.jpg"))
            let (headers, body) = form.finished()
            try expectError(try await client.execute(uri: "/v1/validate?photo_type=kitchen", method: .post, headers: headers, body: body),
                            status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("a bad photo_type in the query is refused before the body is read")
    func badPhotoTypeBeforeBody() async throws {
        try await withLiveApp { client, _ in
            let port = try #require(client.port)
            // The body is declared but never sent: only a check made before reading can answer.
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate?photo_type=kitchen HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 422"), "\(answer.prefix(200))")
            #expect(answer.contains("photo_type must be 'room' or 'inspiration'"))
        }
    }

    @Test("every hostile input is answered 200 with the listed outcome", .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/bad-inputs"))
    func hostileInputs() async throws {
        try await withLiveApp { client, _ in
            let folder = try #require(Fixtures.sharedFile("bad-inputs"))
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file != "ATTRIBUTION.md" {
                let body = ByteBuffer(data: try Data(contentsOf: folder.appendingPathComponent(file)))
                let response = try await client.execute(uri: "/v1/validate", method: .post, headers: [.contentType: "application/octet-stream"], body: body)
                #expect(response.status == .ok, "\(file)")
                let failures = try jsonObject(response)["failures"] as? [String]
                #expect(failures == (file == "png-named.jpg" ? ["low_resolution"] : ["invalid_image"]), "\(file)")
            }
        }
    }
}
