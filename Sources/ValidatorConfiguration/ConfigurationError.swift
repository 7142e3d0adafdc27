/// A setting that could not be used, naming where it came from and what is accepted.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line an operator can act on.
    package let description: String

    /// An error for `value` from `source` (a key or a flag), saying what would be accepted.
    package init(source: String, value: String, expected: String) {
        description = "invalid value '\(value)' for \(source): expected \(expected)"
    }

    /// An error about the command line's settings (an unknown flag, a flag without its value).
    package init(commandLine message: String) {
        description = message
    }

    /// An error for `key` whose value a provider could not read, with the provider's reason.
    package init(key: String, source: String, reason: String) {
        description = "invalid value for \(key) (from \(source)): \(reason)"
    }
}
