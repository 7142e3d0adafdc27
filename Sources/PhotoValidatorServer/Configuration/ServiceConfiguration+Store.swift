import SharedStore
import ValidatorConfiguration

extension ServiceConfiguration {
    /// The shared store `settings` name, checked, or nil when `store.url` is unset (each replica
    /// keeps its own state, as before).
    ///
    /// - Throws: `ConfigurationError` for a URL that names no PostgreSQL database, or an unreadable password file.
    static func store(_ settings: SettingsReader) throws(ConfigurationError) -> SharedStoreSettings? {
        guard let url = try settings.secret(.storeUrl) else { return nil }
        let store = SharedStoreSettings(
            url: url, password: try settings.secret(.storePassword), poolSize: try settings.integer(.storePoolSize),
            tls: try settings.choice(.storeTls, of: SharedStoreSettings.TLSMode.self), tlsCAFile: settings.stringIfSet(.storeTlsCaFile),
            timeout: try settings.seconds(.storeTimeoutSeconds)
        )
        do {
            _ = try store.clientConfiguration()
        } catch {
            // The value itself is not echoed: it may carry a password.
            throw ConfigurationError(source: Setting.storeUrl.key, value: "<redacted>", expected: error.description)
        }
        return store
    }
}
