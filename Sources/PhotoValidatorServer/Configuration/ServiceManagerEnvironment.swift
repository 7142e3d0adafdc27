import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

/// What a service manager (systemd) hands the daemon through its environment: a state directory
/// that holds the outbox (its credentials directory is read by `ConfigurationSources.credentials`).
package struct ServiceManagerEnvironment: Sendable {
    /// systemd sets this to the unit's `StateDirectory=` (several are separated by `:`).
    package static let stateDirectoryVariable = "STATE_DIRECTORY"
    /// The outbox's file name inside the state directory.
    package static let outboxFileName = "outbox.sqlite"

    private let environment: [String: String]

    /// Reads the service manager's variables from `environment`.
    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// The first state directory, or nil when none is set.
    package var stateDirectory: String? {
        guard let value = environment[Self.stateDirectoryVariable] else { return nil }
        return value.split(separator: ":").first.map(String.init)
    }

    /// Defaults that follow the service manager (`outbox.path` in the state directory), to be
    /// consulted after every explicit source; nil when there is no state directory.
    package var defaults: (any ConfigProvider)? {
        guard let stateDirectory else { return nil }
        let path = URL(fileURLWithPath: stateDirectory).appendingPathComponent(Self.outboxFileName).path
        return InMemoryProvider(name: Self.stateDirectoryVariable, values: [
            AbsoluteConfigKey(ConfigKey(Setting.outboxPath.key)): ConfigValue(.string(path), isSecret: false),
        ])
    }
}
