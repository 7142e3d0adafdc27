import Logging

extension Logger {
    /// The logger of the commands that are not the daemon (`validate`, `tune`, `bench`, `label`):
    /// warnings and worse on standard error, so an operator sees why a decode worker could not be
    /// replaced while standard output keeps only the records.
    package static var commandLine: Logger {
        var logger = Logger(label: "photo-validator", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .warning
        return logger
    }
}
