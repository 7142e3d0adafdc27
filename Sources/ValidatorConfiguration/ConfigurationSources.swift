import Configuration
import SystemPackage

/// Builds the one `ConfigReader` every command resolves its configuration from: command-line flags,
/// then `PHOTO_VALIDATOR_*` environment variables, then credentials (systemd's
/// `$CREDENTIALS_DIRECTORY`), then an optional JSON file, then defaults that follow the service
/// manager (such as the outbox under `$STATE_DIRECTORY`), then the built-in defaults.
package enum ConfigurationSources {
    /// Environment variables carry this prefix: key `http.port` is `PHOTO_VALIDATOR_HTTP_PORT`.
    package static let environmentPrefix = "photo_validator"

    /// The environment variable that names a JSON configuration file.
    package static let configFileVariable = "PHOTO_VALIDATOR_CONFIG_FILE"

    /// The environment variable name for a configuration key.
    package static func environmentName(for key: String) -> String {
        "PHOTO_VALIDATOR_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// A reader over `flags` (keys to values, already typed), `environment`, `credentials`, `file`
    /// and `fallback`, in that order, reporting every lookup to `audit`.
    package static func reader(
        flags: [String: ConfigContent],
        environment: [String: String],
        credentials: (any ConfigProvider)? = nil,
        file: (any ConfigProvider)? = nil,
        fallback: (any ConfigProvider)? = nil,
        audit: ConfigurationAudit
    ) -> ConfigReader {
        let flagValues = Dictionary(uniqueKeysWithValues: flags.map { key, content in
            (AbsoluteConfigKey(ConfigKey(key)), ConfigValue(content, isSecret: false))
        })
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flag", values: flagValues),
            EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: ConfigKey(environmentPrefix)),
        ]
        providers += [credentials, file, fallback].compactMap { $0 }
        return ConfigReader(providers: providers, accessReporter: audit)
    }

    /// A reader with nothing set, so each read returns its setting's declared default.
    package static var nothingSet: ConfigReader {
        ConfigReader(provider: InMemoryProvider(values: [:]))
    }

    /// The variable naming the folder of secret files (systemd's `LoadCredential=`, compose or
    /// Kubernetes secrets).
    package static let credentialsDirectoryVariable = "CREDENTIALS_DIRECTORY"

    /// The file in the credentials folder that holds `key`: the key with `-` for `.` and `_`
    /// (`auth.token` is `auth-token`, `content.api_key` is `content-api-key`), as the setting's
    /// flag is named.
    package static func credentialFileName(for key: String) -> String {
        ConfigKey(key).components.flatMap { $0.split(separator: "_").map(String.init) }.joined(separator: "-")
    }

    /// Every file in the `$CREDENTIALS_DIRECTORY` of `environment` as a secret setting
    /// (swift-configuration's `DirectoryFilesProvider`; file names as `credentialFileName(for:)`
    /// says), or nil when the variable is unset.
    ///
    /// - Throws: `ConfigurationError` when the folder cannot be read.
    package static func credentials(environment: [String: String]) async throws(ConfigurationError) -> (any ConfigProvider)? {
        guard let directory = environment[credentialsDirectoryVariable], !directory.isEmpty else { return nil }
        let files: DirectoryFilesProvider
        do {
            files = try await DirectoryFilesProvider(directoryPath: FilePath(directory))
        } catch {
            throw ConfigurationError(source: credentialsDirectoryVariable, value: directory,
                                     expected: "a readable folder of credentials (check LoadCredential= in the unit): \(error)")
        }
        // The provider joins a key's components with dashes; splitting them at `_` as well makes
        // `temporal.api_key` the file `temporal-api-key`, one convention with the flags.
        return files.mapKeys { key in
            AbsoluteConfigKey(key.components.flatMap { $0.split(separator: "_").map(String.init) }, context: key.context)
        }
    }

    /// The JSON file at `path` as a provider; its keys are nested objects (`{"http": {"port": 8080}}`).
    ///
    /// - Throws: `ConfigurationError` when the file is missing or is not valid JSON.
    package static func jsonFile(at path: String) async throws(ConfigurationError) -> any ConfigProvider {
        do {
            return try await FileProvider<JSONSnapshot>(filePath: FilePath(path))
        } catch {
            throw ConfigurationError(source: "configuration file", value: path, expected: "a readable JSON file (\(error))")
        }
    }
}
