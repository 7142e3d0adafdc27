import Logging
import PhotoValidation
import PhotoValidatorServer

/// Builds the daemon from a resolved configuration with the decoders it names: the composition
/// root `serve` and the daemon's tests call. The commands link the decoders and make the
/// validator (`PhotoValidator.configured`: decode workers, or with `decode_isolation = none`
/// libvips in this process); the daemon's module links neither and is handed it.
///
/// - Throws: `DecodeFailure` when libvips cannot be initialised in this process, `SandboxError`
///   when no decode worker can be started, and what `buildApplication(configuration:validator:logger:)` throws.
package func buildApplication(configuration: ServiceConfiguration, logger: Logger) throws -> PhotoValidatorApp {
    let validator = try PhotoValidator.configured(
        // A decode worker kept for each thread that may validate at once, the spare ones included.
        settings: configuration.validation, threads: configuration.workers + configuration.spareWorkers,
        photoTimeLimit: configuration.validationTimeout, logger: logger
    )
    return try buildApplication(configuration: configuration, validator: validator, logger: logger)
}
