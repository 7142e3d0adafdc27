import Logging
import PhotoValidation

/// Builds the daemon from a resolved configuration around `validator`, which decodes the photos:
/// the daemon links no decoder, so its caller makes one (`PhotoValidator.configured` in the
/// commands, for `serve` and the tests) and hands it over, and the daemon keeps it for its life
/// (idle decode workers end with the process). Nothing is started here; the worker pool, the content
/// check's HTTP client, signal delivery and the listeners start in their services' `run`
/// (`PhotoValidatorApp.run()` or `makeApplication()`).
///
/// - Throws: `OutboxError` when the outbox cannot be opened, `SharedStoreError` when `store.url`
///   names no usable database.
package func buildApplication(configuration: ServiceConfiguration, validator: PhotoValidator, logger: Logger) throws -> PhotoValidatorApp {
    try PhotoValidatorApp(configuration: configuration, validator: validator, logger: logger)
}
