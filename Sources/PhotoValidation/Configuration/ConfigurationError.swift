/// A setting that could not be used, naming where it came from and what is accepted.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The flag or environment variable that carried the value.
    public let source: String
    /// The value as given.
    public let value: String
    /// What would have been accepted.
    public let expected: String

    /// Creates an error for `value` from `source`.
    public init(source: String, value: String, expected: String) {
        self.source = source
        self.value = value
        self.expected = expected
    }

    /// One line an operator can act on.
    public var description: String {
        "invalid value '\(value)' for \(source): expected \(expected)"
    }
}
