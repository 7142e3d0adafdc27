import Configuration
import Synchronization

/// Records every configuration lookup so that a value of the wrong type is an error rather than a
/// silent fallback to the default, and so the resolved configuration can say where each value
/// came from.
package final class ConfigurationAudit: AccessReporter, Sendable {
    /// One resolved setting.
    package struct Entry: Sendable, Equatable {
        /// The configuration key, such as `http.port`.
        package let key: String
        /// The provider that supplied the value, or nil when the default applied.
        package let source: String?
        /// The value as text, `<redacted>` for secrets, or nil when unset.
        package let value: String?
    }

    private let events = Mutex<[AccessEvent]>([])

    /// An empty audit.
    package init() {}

    /// Records one lookup (called by `ConfigReader`).
    package func report(_ event: AccessEvent) {
        events.withLock { $0.append(event) }
    }

    /// Throws the first value that could not be converted to the type its key needs, whether the
    /// provider (a string in the environment) or the reader (a JSON value) failed to convert it.
    package func checkConversions() throws(ConfigurationError) {
        let failure = events.withLock { events -> (AccessEvent, String, String)? in
            for event in events {
                for result in event.providerResults {
                    if case .failure(let error) = result.result {
                        return (event, Self.sourceName(result.providerName), "\(error)")
                    }
                }
                if let error = event.conversionError {
                    return (event, "configuration", "\(error)")
                }
            }
            return nil
        }
        guard let (event, source, reason) = failure else { return }
        throw ConfigurationError(key: "\(event.metadata.key)", source: source, reason: reason)
    }

    /// `flag`, `environment`, `file`, or the name of an in-memory provider (`credentials`,
    /// `STATE_DIRECTORY`) for the providers `ConfigurationSources` is given.
    static func sourceName(_ providerName: String) -> String {
        if providerName.hasPrefix("InMemoryProvider["), providerName.hasSuffix("]") {
            return String(providerName.dropFirst("InMemoryProvider[".count).dropLast())
        }
        if providerName.contains("DirectoryFilesProvider") { return "credentials" }
        if providerName.contains("Environment") { return "environment" }
        if providerName.contains("File") { return "file" }
        return providerName
    }

    /// A configuration value as plain text.
    static func text(of content: ConfigContent) -> String {
        switch content {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        default: String(describing: content)
        }
    }

    /// Every key looked up, in first-lookup order, with its source and redacted value.
    package var entries: [Entry] {
        var seen = Set<String>()
        return events.withLock { events in
            events.compactMap { event -> Entry? in
                let key = event.metadata.key.description
                guard seen.insert(key).inserted else { return nil }
                let source = event.providerResults.first { result in
                    if case .success(let lookup) = result.result { return lookup.value != nil }
                    return false
                }
                var value: String?
                if case .success(let resolved) = event.result, let resolved {
                    value = resolved.isSecret ? "<redacted>" : Self.text(of: resolved.content)
                }
                return Entry(key: key, source: source.map { Self.sourceName($0.providerName) }, value: value)
            }
        }
    }
}
