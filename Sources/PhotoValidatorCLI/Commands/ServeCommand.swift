import ArgumentParser
import Foundation
import Logging
import PhotoValidatorServer

/// `photo-validator serve`: the HTTP daemon.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the photo-validation daemon (HTTP on 127.0.0.1:8080 by default).",
        discussion: """
            Endpoints: POST /v1/validate, POST /api/v1/projects/{project_id}/photos, GET /healthz, \
            GET /readyz, GET /metrics, GET /openapi.yaml. SIGTERM or SIGINT stops accepting \
            connections, lets in-flight requests finish within the grace period, and exits 0.
            """
    )

    @OptionGroup var options: ServeOptions

    mutating func run() async throws {
        let (configuration, _) = try await options.resolve(environment: ProcessInfo.processInfo.environment)
        let format = configuration.logFormat
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            switch format {
            case .json:
                return JSONLogHandler(label: label, level: level)
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let logger = Logger(label: "photo-validator")
        let app: PhotoValidatorApp
        do {
            app = try buildApplication(configuration: configuration, logger: logger)
        } catch {
            logger.critical("cannot start", metadata: ["error": .string("\(error)")])
            throw ExitCode(1)
        }
        logger.info("starting", metadata: [
            "address": .string("\(configuration.host):\(configuration.port)"),
            "unix_socket": .string(configuration.unixSocket ?? "-"),
            "workers": .stringConvertible(configuration.workers),
            "queue": .stringConvertible(configuration.queueLimit),
            "auth": .string(configuration.authToken == nil ? "off" : "bearer token"),
        ])
        try await app.run()
        logger.info("stopped")
    }
}
