import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// The `validation` object of an upload's answer, and the photo id.
private func uploaded(_ client: some TestClientProtocol, project: String, file: String) async throws -> (photoID: String, validation: [String: Any]) {
    let answer = try jsonObject(try await upload(client, project: project, file: file))
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
            #expect((details(first.validation)["fingerprint"] as? String)?.isEmpty == false)

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
}
