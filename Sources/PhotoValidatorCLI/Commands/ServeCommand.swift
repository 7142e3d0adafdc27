import ArgumentParser
import Foundation
import Logging
import PhotoValidatorServer
import ValidatorConfiguration

/// `photo-validator serve`: the HTTP daemon.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the photo-validation daemon (HTTP on 127.0.0.1:8080 by default).",
        discussion: """
            Endpoints: POST /v1/validate, POST /api/v1/projects/{project_id}/photos, GET /healthz, \
            GET /readyz, GET /metrics, GET /openapi.yaml. SIGTERM or SIGINT stops accepting \
            connections, lets in-flight requests finish within the grace period, and exits 0.

            Every setting is a flag (below), the environment variable PHOTO_VALIDATOR_<KEY> (the key \
            in upper case, '.' as '_'), or a key of the JSON file of --config; a flag wins over the \
            variable, which wins over the file. Secrets (auth.token, temporal.api_key, webhook.secret, \
            content.api_key) are never flags: they come from the environment, a file or systemd \
            credentials. `photo-validator config` lists every key with its value and source.

            SETTINGS:

            """ + ServiceConfiguration.allSettings.flagHelp
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
                return LogfmtLogHandler(label: label, level: level)
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
            "auth": .string(Self.authentication(configuration)),
            "fair_caller": .string(configuration.clientHeader.map { "header \($0)" } ?? (configuration.callerTokens.isEmpty ? "peer address" : "token name, else peer address")),
        ])
        do {
            try await app.run()
        } catch where PhotoValidatorApp.isAddressInUse(error) {
            let address = configuration.unixSocket.map { "\(configuration.host):\(configuration.port) or \($0)" } ?? "\(configuration.host):\(configuration.port)"
            logger.critical("cannot listen: address in use", metadata: ["address": .string(address)])
            StandardStreams.error("photo-validator: cannot listen on \(address): the address is already in use (another photo-validator?). "
                + "Stop that program, or choose another port with --port PORT (or PHOTO_VALIDATOR_HTTP_PORT; 0 picks a free one).")
            throw ExitCode(1)
        }
        logger.info("stopped")
    }

    /// How requests authenticate, for the start line: `off`, `bearer token`, `named tokens (n)` or both.
    static func authentication(_ configuration: ServiceConfiguration) -> String {
        let named = configuration.callerTokens.isEmpty ? nil : "named tokens (\(configuration.callerTokens.count))"
        let kinds = [configuration.authToken.map { _ in "bearer token" }, named].compactMap { $0 }
        return kinds.isEmpty ? "off" : kinds.joined(separator: " and ")
    }
}
