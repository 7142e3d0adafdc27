/// A provider API key that never appears in descriptions, logs or dumps.
package struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself, for the request header only.
    package let value: String

    /// Wraps `value`.
    package init(_ value: String) {
        self.value = value
    }

    /// Always `<redacted>`.
    package var description: String { "<redacted>" }
    /// Always `<redacted>`.
    package var debugDescription: String { "<redacted>" }
    /// A mirror without the value, so `dump` does not print it either.
    package var customMirror: Mirror { Mirror(self, children: []) }
}
