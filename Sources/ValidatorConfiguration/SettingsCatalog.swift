/// The settings a command accepts, in the order they are listed, found by key or by flag.
package struct SettingsCatalog: Sendable {
    /// The settings in declaration order.
    package let settings: [Setting]
    private let byKey: [String: Setting]
    private let byFlag: [String: Setting]

    /// A catalog of `settings`; a key or flag declared twice is a programming error.
    package init(_ settings: [Setting]) {
        self.settings = settings
        byKey = Dictionary(settings.map { ($0.key, $0) }) { first, _ in preconditionFailure("setting \(first.key) is declared twice") }
        byFlag = Dictionary(settings.compactMap { setting in setting.flag.map { ($0, setting) } }) { first, _ in
            preconditionFailure("flag --\(first.flag ?? "") is declared twice")
        }
    }

    /// The setting with `key`; a key that is not declared is a programming error.
    package subscript(key: String) -> Setting {
        guard let setting = byKey[key] else { preconditionFailure("configuration key \(key) is read but not declared as a Setting") }
        return setting
    }

    /// The setting with `key`, or nil.
    package func setting(forKey key: String) -> Setting? {
        byKey[key]
    }

    /// The setting whose flag is `--flag`, or nil.
    package func setting(forFlag flag: String) -> Setting? {
        byFlag[flag]
    }

    /// Two catalogs as one.
    package static func + (left: SettingsCatalog, right: SettingsCatalog) -> SettingsCatalog {
        SettingsCatalog(left.settings + right.settings)
    }
}
