import Foundation
import HummingbirdTesting
import NIOCore
import PhotoChecks
import PhotoValidation
import PhotoValidatorCLI
import PhotoValidatorServer
import TestFixtures
import Testing

/// Why the daemon's side of the worker wall failed its check.
private struct WallBreach: Error, CustomStringConvertible {
    /// What was found.
    let description: String
}

@Suite("The daemon sets up no decoder of its own", .integration, .timeLimit(.minutes(5)))
struct DaemonDecoderTests {
    @Test("after serve's app validates photos through its decode workers, the daemon's process has not set up libvips (nor libjpeg or FFmpeg, which only libvips' set-up lets in); making a decoder in the same process then does")
    func daemonProcessDecodesNothing() async throws {
        // A fresh child process: this test process's other suites decode photos in it.
        // The child's issues are reported here; its exit status says it ran to the end.
        await #expect(processExitsWith: .success) {
            do {
                try await DaemonDecoderTests.validateThroughWorkers()
            } catch {
                Issue.record("\(error)")
                exit(1)
            }
        }
    }

    /// Builds the daemon as `serve` does (decode workers from the built binary), validates a JPEG
    /// and a HEIC (with the content check's preview) through it over HTTP, and throws unless
    /// libvips is still unset in this process afterwards, and set once a decoder is made here.
    static func validateThroughWorkers() async throws {
        guard !DecoderRuntime.isStarted else { throw WallBreach(description: "libvips was set up before the daemon was even built") }
        var configuration = ServiceConfiguration()
        configuration.workers = 2
        configuration.validation.decodeIsolation = .process
        configuration.validation.decodeWorkerExecutable = ProcessRunner.photoValidatorExecutable.path
        let app = try buildApplication(configuration: configuration, logger: testLogger)
        guard app.service.validator.isolation != nil else { throw WallBreach(description: "the daemon decodes in its own process") }
        guard !DecoderRuntime.isStarted else { throw WallBreach(description: "building the daemon set up libvips in its process") }
        let answers = try await app.makeApplication().test(.live) { client in
            var answers: [String] = []
            for (path, type) in [("photos/cups.jpg", "room"), ("variants/same-room.heic", "inspiration")] {
                let response = try await client.execute(uri: "/v1/validate?photo_type=\(type)", method: .post, body: try testdataBytes(path))
                answers.append(String(buffer: response.body))
            }
            return answers
        }
        for answer in answers where !answer.contains("\"format\"") || answer.contains("\"error\"") {
            throw WallBreach(description: "a photo was not decoded by a worker: \(answer.prefix(600))")
        }
        guard !DecoderRuntime.isStarted else { throw WallBreach(description: "validating photos through the daemon set up libvips in its process") }
        // The flag is not vacuous: a decoder made here sets it.
        _ = try PhotoValidator(settings: ValidationSettings())
        guard DecoderRuntime.isStarted else { throw WallBreach(description: "a decoder made in this process did not set libvips up") }
    }
}
