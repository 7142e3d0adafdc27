import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// Posts an upload form to project `project`.
func upload(_ client: some TestClientProtocol, project: String = "project-1", file: String = "photos/cups.jpg", fields: [String: String] = [:],
            headers extra: HTTPFields = [:]) async throws -> TestResponse {
    var form = MultipartBody()
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) { form.field(name, value) }
    form.file("file", filename: "photo.jpg", contentType: "image/jpeg", bytes: try testdataBytes(file))
    var (headers, body) = form.finished()
    headers.append(contentsOf: extra)
    return try await client.execute(uri: "/api/v1/projects/\(project)/photos", method: .post, headers: headers, body: body)
}

@Suite("POST /api/v1/projects/{project_id}/photos", .timeLimit(.minutes(10)))
struct UploadEndpointTests {
    @Test("without forwarding, an Idempotency-Key gives the same photo_id for a repeat, scoped to the project; a bad key is 422")
    func idempotencyKeyWithoutOutbox() async throws {
        try await withLiveApp { client, _ in
            let key: HTTPFields = [.idempotencyKey: "gw-req-42"]
            let first = try jsonObject(try await upload(client, headers: key))
            let second = try jsonObject(try await upload(client, headers: key))
            let other = try jsonObject(try await upload(client, project: "project-2", headers: key))
            #expect(first["photo_id"] as? String == second["photo_id"] as? String)
            #expect(first["photo_id"] as? String != other["photo_id"] as? String)
            #expect(first["photo_id"] as? String != (try jsonObject(try await upload(client)))["photo_id"] as? String)
            try expectError(try await upload(client, headers: [.idempotencyKey: "has space"]), status: .unprocessableContent, code: "validation_error")
            try expectError(try await upload(client, headers: [.idempotencyKey: String(repeating: "k", count: 256)]), status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("answers a fresh UUID v4 photo_id and the validation, passed or not")
    func answersPhotoIDAndValidation() async throws {
        try await withLiveApp { client, _ in
            let passed = try jsonObject(try await upload(client))
            let photoID = try #require(passed["photo_id"] as? String)
            let uuid = try #require(UUID(uuidString: photoID))
            #expect(uuid.uuidString.lowercased() == photoID)
            #expect(Array(photoID)[14] == "4", "version 4")
            #expect((passed["validation"] as? [String: Any])?["passed"] as? Bool == true)

            let failed = try await upload(client, file: "photos/small-coffee.png")
            #expect(failed.status == .ok)
            let validation = try #require(try jsonObject(failed)["validation"] as? [String: Any])
            #expect(validation["failures"] as? [String] == ["low_resolution"])
            #expect(try jsonObject(failed)["photo_id"] as? String != photoID)
        }
    }

    @Test("a note is allowed on inspiration photos up to 200 characters")
    func noteRules() async throws {
        try await withLiveApp { client, _ in
            let ok = try await upload(client, fields: ["photo_type": "inspiration", "note": String(repeating: "é", count: 200)])
            #expect(ok.status == .ok)
            try expectError(try await upload(client, fields: ["photo_type": "room", "note": "nice"]), status: .unprocessableContent, code: "note_not_allowed")
            try expectError(try await upload(client, fields: ["note": "nice"]), status: .unprocessableContent, code: "note_not_allowed")
            let tooLong = try await upload(client, fields: ["photo_type": "inspiration", "note": String(repeating: "a", count: 201)])
            try expectError(tooLong, status: .unprocessableContent, code: "note_too_long")
            #expect(try jsonObject(tooLong)["message"] as? String == "Inspiration photo note must be 200 characters or fewer")
        }
    }

    @Test("a project id that is not a plain identifier is 422 validation_error",
          arguments: ["..", ".", "a%20b", "proj%C3%A9", String(repeating: "p", count: 257)])
    func badProjectID(projectID: String) async throws {
        try await withLiveApp { client, _ in
            try expectError(try await upload(client, project: projectID), status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("a storage key over 1024 bytes is 422; one of 1024 bytes is kept")
    func storageKeyLength() async throws {
        try await withLiveApp { client, _ in
            try expectError(try await upload(client, fields: ["storage_key": String(repeating: "k", count: 1025)]), status: .unprocessableContent, code: "validation_error")
            #expect(try await upload(client, fields: ["storage_key": String(repeating: "k", count: 1024)]).status == .ok)
        }
    }

    @Test("a form without a file, or not multipart, is 422 validation_error")
    func missingFile() async throws {
        try await withLiveApp { client, _ in
            var form = MultipartBody()
            form.field("photo_type", "room")
            let (headers, body) = form.finished()
            try expectError(try await client.execute(uri: "/api/v1/projects/p/photos", method: .post, headers: headers, body: body),
                            status: .unprocessableContent, code: "validation_error")
            try expectError(try await client.execute(uri: "/api/v1/projects/p/photos", method: .post, headers: [.contentType: "image/jpeg"], body: try testdataBytes("photos/cups.jpg")),
                            status: .unprocessableContent, code: "validation_error")
            try expectError(try await upload(client, fields: ["photo_type": "selfie"]), status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("a boundary over RFC 2046's 70 characters is 400 before the body is read, on both endpoints")
    func longBoundary() async throws {
        try await withLiveApp { client, _ in
            for length in [71, 1_000, 8_000] {
                let boundary = String(repeating: "b", count: length)
                var body = ByteBuffer()
                body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n")
                body.writeBytes([UInt8](repeating: UInt8(ascii: "b"), count: 1 << 20))
                body.writeString("\r\n--\(boundary)--\r\n")
                let headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
                for uri in ["/api/v1/projects/p/photos", "/v1/validate"] {
                    let response = try await client.execute(uri: uri, method: .post, headers: headers, body: body)
                    try expectError(response, status: .badRequest, code: "validation_error")
                    #expect(String(buffer: response.body).contains("RFC 2046"))
                }
            }
        }
    }
}
