import Logging

/// Builds the daemon from a resolved configuration: the one composition root that `serve` and
/// the tests both call. Nothing is started here; the worker pool, the content check's HTTP client,
/// signal delivery and the listeners start in their services' `run` (`PhotoValidatorApp.run()` or
/// `makeApplication()`).
///
/// - Throws: `DecodeFailure` when libvips cannot be initialised, `OutboxError` when the outbox
///   cannot be opened.
public func buildApplication(configuration: ServiceConfiguration, logger: Logger) throws -> PhotoValidatorApp {
    try PhotoValidatorApp(configuration: configuration, logger: logger)
}
