import Foundation
import Hummingbird
import LumaAnalysis
import HummingbirdTesting
import NIOCore
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// The `validation` object of an upload's answer, and the photo id.
private func uploaded(_ client: some TestClientProtocol, project: String, file: String,
                      photoType: String = "room") async throws -> (photoID: String, validation: [String: Any]) {
    let answer = try jsonObject(try await upload(client, project: project, file: file, fields: ["photo_type": photoType]))
    return (try #require(answer["photo_id"] as? String), try #require(answer["validation"] as? [String: Any]))
}

/// The failures of a validation object.
private func failures(_ validation: [String: Any]) -> [String] {
    validation["failures"] as? [String] ?? []
}

/// The `details` of a validation object.
private func details(_ validation: [String: Any]) -> [String: Any] {
    validation["details"] as? [String: Any] ?? [:]
}

@Suite("The duplicate check of a project's photos", .timeLimit(.minutes(10)))
struct DuplicatePhotoTests {
    @Test("the same photo added again to a project is duplicate_photo naming the first, in any format or orientation; another project takes it; DELETE forgets it")
    func uploadsOfOneProject() async throws {
        try await withLiveApp { client, _ in
            let first = try await uploaded(client, project: "flat-1", file: "photos/cups.jpg")
            #expect(failures(first.validation).isEmpty)
            // The answer carries no fingerprint unless asked for (?details=fingerprint).
            #expect(details(first.validation)["fingerprint"] == nil)

            // The same photo re-encoded as HEIC at another size, and turned by an EXIF tag.
            for copy in ["photos/cups.jpg", "variants/same-room.heic", "variants/rotated-6.jpg"] {
                let again = try await uploaded(client, project: "flat-1", file: copy)
                // The turned copy is 1000x1600, under the room minimum as well.
                #expect(failures(again.validation).last == "duplicate_photo", "\(copy)")
                #expect(details(again.validation)["duplicate_of"] as? String == first.photoID, "\(copy)")
                #expect((again.validation["messages"] as? [String])?.last == "You've already added this photo to this project. Please choose a different one.")
            }
            // Another photo of the project, and the same photo in another project, pass.
            let outcome1 = try await uploaded(client, project: "flat-1", file: "photos/room-living-wine.jpg")
            #expect(failures(outcome1.validation).isEmpty)
            let outcome2 = try await uploaded(client, project: "flat-2", file: "photos/cups.jpg")
            #expect(failures(outcome2.validation).isEmpty)

            let forget = try await client.execute(uri: "/api/v1/projects/flat-1/photos/\(first.photoID)", method: .delete)
            #expect(forget.status == .ok)
            #expect(try jsonObject(forget)["forgotten"] as? Bool == true)
            let unknown = try await client.execute(uri: "/api/v1/projects/flat-1/photos/no-such-photo", method: .delete)
            #expect(try jsonObject(unknown)["forgotten"] as? Bool == false)
            let outcome3 = try await uploaded(client, project: "flat-1", file: "photos/cups.jpg")
            #expect(failures(outcome3.validation).isEmpty)
        }
    }

    @Test("details.fingerprint is in an answer only with ?details=fingerprint, on both routes; it is made only when read; another detail is 422")
    func fingerprintOnlyWhenAsked() async throws {
        try await withLiveApp { client, _ in
            let bytes = try testdataBytes("photos/cups.jpg")
            // The raw route without a project: no fingerprint made, none answered.
            let bare = try jsonObject(try await client.execute(uri: "/v1/validate", method: .post, body: bytes))
            #expect(details(bare)["fingerprint"] == nil)
            #expect((details(bare)["timings_ms"] as? [String: Any])?["fingerprint"] as? Double == 0)
            let bareText = try await client.execute(uri: "/v1/validate", method: .post, body: bytes)
            #expect(bareText.body.readableBytes < 2048, "a typical answer is under 2 KB: \(bareText.body.readableBytes) bytes")
            // Asked for: the fingerprint is there, at most its bound, and parses.
            let asked = try jsonObject(try await client.execute(uri: "/v1/validate?details=fingerprint", method: .post, body: bytes))
            let text = try #require(details(asked)["fingerprint"] as? String)
            #expect(text.utf8.count <= PhotoFingerprint.maximumEncodedBytes)
            #expect(PhotoFingerprint(base64: text) != nil)
            #expect(try #require(Data(base64Encoded: text)).count <= 8192)
            // With a project the fingerprint is made for the duplicate check, and still not answered.
            let project = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-9&photo_id=p1", method: .post, body: bytes))
            #expect(details(project)["fingerprint"] == nil)
            #expect(((details(project)["timings_ms"] as? [String: Any])?["fingerprint"] as? Double ?? 0) > 0)
            let again = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-9", method: .post, body: bytes))
            #expect(failures(again) == ["duplicate_photo"])
            var form = MultipartBody()
            form.file("file", filename: "photo.jpg", contentType: "image/jpeg", bytes: bytes)
            let (headers, body) = form.finished()
            let uploadedAnswer = try jsonObject(try await client.execute(uri: "/api/v1/projects/flat-10/photos?details=fingerprint", method: .post, headers: headers, body: body))
            let validation = try #require(uploadedAnswer["validation"] as? [String: Any])
            #expect(details(validation)["fingerprint"] as? String == text)
            let unknown = try await client.execute(uri: "/v1/validate?details=everything", method: .post, body: bytes)
            try expectError(unknown, status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("a photo that failed is not remembered: its retake is not a duplicate")
    func failedPhotosAreForgotten() async throws {
        try await withLiveApp { client, _ in
            let small = try await uploaded(client, project: "flat-3", file: "photos/small-coffee.png")
            #expect(failures(small.validation) == ["low_resolution"])
            let again = try await uploaded(client, project: "flat-3", file: "photos/small-coffee.png")
            #expect(failures(again.validation) == ["low_resolution"])
        }
    }

    @Test("/v1/validate compares with a project's photos when given project_id, and remembers a passed photo under photo_id")
    func validateEndpoint() async throws {
        try await withLiveApp { client, _ in
            let bytes = try testdataBytes("photos/cups.jpg")
            let remembered = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-4&photo_id=gw-photo-1", method: .post, body: bytes))
            #expect(remembered["passed"] as? Bool == true)
            // The same photo id again (a retry) is not its own duplicate.
            let retry = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-4&photo_id=gw-photo-1", method: .post, body: bytes))
            #expect(retry["passed"] as? Bool == true)
            let checked = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-4", method: .post, body: bytes))
            #expect(checked["failures"] as? [String] == ["duplicate_photo"])
            #expect(details(checked)["duplicate_of"] as? String == "gw-photo-1")
            // Without a project nothing is compared.
            let plain = try jsonObject(try await client.execute(uri: "/v1/validate", method: .post, body: bytes))
            #expect(plain["passed"] as? Bool == true)
            try expectError(try await client.execute(uri: "/v1/validate?photo_id=x", method: .post, body: bytes), status: .unprocessableContent, code: "validation_error")
            try expectError(try await client.execute(uri: "/v1/validate?project_id=a%20b", method: .post, body: bytes), status: .unprocessableContent, code: "validation_error")
        }
    }

    @Test("with duplicates.check off the same photo passes twice")
    func turnedOff() async throws {
        try await withLiveApp({ $0.validation.duplicateCheck = false }) { client, _ in
            let outcome4 = try await uploaded(client, project: "flat-5", file: "photos/cups.jpg")
            #expect(failures(outcome4.validation).isEmpty)
            let outcome5 = try await uploaded(client, project: "flat-5", file: "photos/cups.jpg")
            #expect(failures(outcome5.validation).isEmpty)
        }
    }

    @Test("with an outbox the fingerprints live in its database and outlast a restart")
    func outlastsRestart() async throws {
        let path = Fixtures.temporaryPath("duplicates-outbox.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configure: (inout ServiceConfiguration) -> Void = { configuration in
            configuration.signal.target = .webhook
            configuration.signal.webhookURL = "http://127.0.0.1:9/unreachable"
            configuration.signal.webhookSecret = "secret"
            configuration.signal.outboxPath = path
        }
        let firstID = try await withLiveApp(configure) { client, _ in
            try await uploaded(client, project: "flat-6", file: "photos/cups.jpg").photoID
        }
        try await withLiveApp(configure) { client, _ in
            let again = try await uploaded(client, project: "flat-6", file: "photos/cups.jpg")
            #expect(details(again.validation)["duplicate_of"] as? String == firstID)
        }
    }

    @Test("the raw route cannot overwrite: a photo_id the project remembers with another photo is 409 and changes nothing")
    func rawRouteCannotOverwrite() async throws {
        try await withLiveApp { client, _ in
            let cups = try testdataBytes("photos/cups.jpg"), wine = try testdataBytes("photos/room-living-wine.jpg")
            let first = try await client.execute(uri: "/v1/validate?project_id=flat-7&photo_id=gw-1", method: .post, body: cups)
            #expect(try jsonObject(first)["passed"] as? Bool == true)
            try expectError(try await client.execute(uri: "/v1/validate?project_id=flat-7&photo_id=gw-1", method: .post, body: wine),
                            status: .conflict, code: "photo_id_conflict")
            // The first photo is still the one remembered: its copy is its duplicate.
            let copy = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-7", method: .post, body: cups))
            #expect(details(copy)["duplicate_of"] as? String == "gw-1")
            let other = try jsonObject(try await client.execute(uri: "/v1/validate?project_id=flat-7", method: .post, body: wine))
            #expect(other["passed"] as? Bool == true)
        }
    }

    @Test("a project keeps its newest photos (duplicates.photos_per_project): the oldest is forgotten, counted and logged")
    func projectLimit() async throws {
        try await withLiveApp({ $0.duplicatePhotosPerProject = 2 }) { client, _ in
            let first = try await uploaded(client, project: "flat-8", file: "photos/cups.jpg")
            #expect(failures(first.validation).isEmpty)
            for file in ["photos/room-living-wine.jpg", "photos/outdoor-path.jpg"] {
                _ = try await uploaded(client, project: "flat-8", file: file)
            }
            let again = try await uploaded(client, project: "flat-8", file: "photos/cups.jpg")
            #expect(failures(again.validation).isEmpty, "the first photo fell out of the project's two")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_duplicate_memory_evictions_total{reason=\"project_full\"} 2"))
            #expect(metrics.contains("photo_validator_duplicate_memory_photos 2"))
        }
    }

    @Test("identical keyed uploads racing on their own connections accept one photo and promise one signal, round after round; the answer is kept without the fingerprint")
    func racingRepeats() async throws {
        let path = Fixtures.temporaryPath("racing-outbox.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withLiveApp(unreachableWebhook(outbox: path)) { client, app in
            let port = try #require(client.port)
            for round in 0..<3 {
                let answers = try await withThrowingTaskGroup(of: RacedUpload.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await racedUpload(port: port, project: "race-\(round)", file: "photos/small-coffee.png", key: "same-\(round)")
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.status == 200 }, "round \(round): \(answers.map(\.status))")
                #expect(Set(answers.map(\.body)).count == 1, "round \(round): one answer for every repeat")
                #expect(answers.count { !$0.replayed } == 1)
                let answer = try #require(JSONSerialization.jsonObject(with: Data(answers[0].body.utf8)) as? [String: Any])
                let validation = try #require(answer["validation"] as? [String: Any])
                #expect(failures(validation).isEmpty, "round \(round)")
                #expect(details(validation)["fingerprint"] == nil)
                let photoID = try #require(answer["photo_id"] as? String)
                #expect(try await app.forwarder!.outbox!.entry(photoID: photoID) != nil)
                #expect(app.service.duplicates!.store.photos(in: "race-\(round)").photos.map(\.photoID) == [photoID])
            }
            let counts = try await app.forwarder!.outbox!.counts()
            #expect(counts.pending + counts.dead == 3)
        }
    }

    @Test("different photos racing one key on their own connections: one is answered, the others 422, and only the answered one is remembered")
    func racingKeyReuse() async throws {
        let path = Fixtures.temporaryPath("reuse-outbox.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withLiveApp(unreachableWebhook(outbox: path)) { client, app in
            let port = try #require(client.port)
            let files = ["photos/small-coffee.png", "photos/small-person.png", "photos/small-indoor-lab.jpg"]
            let raced = try await withThrowingTaskGroup(of: (String, RacedUpload).self) { group in
                for file in files {
                    group.addTask { (file, try await racedUpload(port: port, project: "reuse", file: file, key: "one-key")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let answered = raced.filter { $0.1.status == 200 }
            #expect(answered.count == 1 && raced.count { $0.1.status == 422 } == 2, "\(raced.map(\.1.status))")
            let photoID = try answered.first.map { try #require(JSONSerialization.jsonObject(with: Data($0.1.body.utf8)) as? [String: Any])["photo_id"] as? String }
            #expect(app.service.duplicates!.store.photos(in: "reuse").photos.map(\.photoID) == [photoID].compactMap { $0 })
            // The 422s remembered nothing: their photos pass in the project.
            for (file, upload) in raced where upload.status == 422 {
                let again = try await uploaded(client, project: "reuse", file: file, photoType: "inspiration")
                #expect(failures(again.validation).isEmpty, "\(file)")
            }
        }
    }
}

/// What a raced upload was answered.
private struct RacedUpload: Sendable {
    let status: Int
    let body: String
    let replayed: Bool
}

/// Uploads `file` as an inspiration photo to `project` with `key` on a connection of its own (the
/// test client's one connection would take racing requests one after the other), waiting up to
/// 120 s for the answer.
private func racedUpload(port: Int, project: String, file: String, key: String) async throws -> RacedUpload {
    var form = MultipartBody()
    form.field("photo_type", "inspiration")
    form.file("file", filename: "photo", contentType: "application/octet-stream", bytes: try testdataBytes(file))
    let (formHeaders, body) = form.finished()
    var headers = formHeaders
    headers[.idempotencyKey] = key
    let sent = headers
    return try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120))) { client in
        let response = try await client.post("/api/v1/projects/\(project)/photos", headers: sent, body: body)
        return RacedUpload(status: response.status.code, body: String(buffer: response.body ?? ByteBuffer()),
                           replayed: response.headers[.idempotentReplayed] == "true")
    }
}

/// Forwarding to a webhook nobody listens on, with the outbox at `outbox`: promises are kept, never delivered.
private func unreachableWebhook(outbox: String) -> (inout ServiceConfiguration) -> Void {
    { configuration in
        configuration.signal.target = .webhook
        configuration.signal.webhookURL = "http://127.0.0.1:9/unreachable"
        configuration.signal.webhookSecret = "secret"
        configuration.signal.outboxPath = outbox
    }
}
