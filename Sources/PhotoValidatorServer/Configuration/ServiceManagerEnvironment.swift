import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

/// What a service manager (systemd) hands the daemon through its environment: a state directory
/// that holds the outbox, and a credentials directory whose files are secret settings.
public struct ServiceManagerEnvironment: Sendable {
    /// systemd sets this to the unit's `StateDirectory=` (several are separated by `:`).
    public static let stateDirectoryVariable = "STATE_DIRECTORY"
    /// systemd sets this to the folder of the unit's `LoadCredential=` files.
    public static let credentialsDirectoryVariable = "CREDENTIALS_DIRECTORY"
    /// The outbox's file name inside the state directory.
    public static let outboxFileName = "outbox.sqlite"

    private let environment: [String: String]

    /// Reads the service manager's variables from `environment`.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The first state directory, or nil when none is set.
    public var stateDirectory: String? {
        guard let value = environment[Self.stateDirectoryVariable] else { return nil }
        return value.split(separator: ":").first.map(String.init)
    }

    /// Defaults that follow the service manager (`outbox.path` in the state directory), to be
    /// consulted after every explicit source; nil when there is no state directory.
    public var defaults: (any ConfigProvider)? {
        guard let stateDirectory else { return nil }
        let path = URL(fileURLWithPath: stateDirectory).appendingPathComponent(Self.outboxFileName).path
        return InMemoryProvider(name: Self.stateDirectoryVariable, values: [
            AbsoluteConfigKey(ConfigKey("outbox.path")): ConfigValue(.string(path), isSecret: false),
        ])
    }

    /// Every file in `$CREDENTIALS_DIRECTORY` as a secret setting named after the file
    /// (`auth.token`, `temporal.api_key`, `webhook.secret`, ...), its content trimmed; nil when the
    /// variable is unset.
    ///
    /// - Throws: `ConfigurationError` when the folder or a file in it cannot be read.
    public func credentials() throws(ConfigurationError) -> (any ConfigProvider)? {
        guard let directory = environment[Self.credentialsDirectoryVariable], !directory.isEmpty else { return nil }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ConfigurationError(source: Self.credentialsDirectoryVariable, value: directory,
                                     expected: "a readable folder of credentials (check LoadCredential= in the unit): \(error.localizedDescription)")
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ConfigurationError(source: "credential \(name)", value: path,
                                         expected: "a readable UTF-8 file holding the value: \(error.localizedDescription)")
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else {
                throw ConfigurationError(source: "credential \(name)", value: path, expected: "a file holding a non-empty value")
            }
            values[AbsoluteConfigKey(ConfigKey(name))] = ConfigValue(.string(value), isSecret: true)
        }
        return InMemoryProvider(name: "credentials", values: values)
    }
}
