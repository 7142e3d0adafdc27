import ArgumentParser
import ValidatorConfiguration

extension ArgumentHelp {
    /// The help of the flag of `catalog`'s setting `key`, as its declaration states it.
    static func setting(_ key: String, in catalog: SettingsCatalog) -> ArgumentHelp {
        let setting = catalog[key]
        let tail = "[env: \(setting.environmentVariable)" + (setting.defaultValue.map { ", default: \($0)" } ?? "") + "]"
        return ArgumentHelp("\(setting.meaning.prefix(1).uppercased())\(setting.meaning.dropFirst()). \(tail)", visibility: setting.isHidden ? .hidden : .default)
    }
}

extension NameSpecification {
    /// The long flag of `catalog`'s setting `key`, as its declaration names it.
    static func setting(_ key: String, in catalog: SettingsCatalog) -> NameSpecification {
        .customLong(catalog[key].flag ?? key)
    }
}
