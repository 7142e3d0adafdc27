/// A provider API key that never appears in descriptions, logs or dumps.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself, for the request header only.
    public let value: String

    /// Wraps `value`.
    public init(_ value: String) {
        self.value = value
    }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// A mirror without the value, so `dump` does not print it either.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
