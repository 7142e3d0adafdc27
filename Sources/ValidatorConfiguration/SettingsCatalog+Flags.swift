import Configuration

extension SettingsCatalog {
    /// The settings that `arguments` (`--flag value` or `--flag=value`, as the command line left
    /// them) set, by key, typed as the reader reads them.
    ///
    /// - Throws: `ConfigurationError` for an argument that is no setting's flag, lacks its value,
    ///   or has a value of the wrong type.
    public func values(fromFlags arguments: [String]) throws(ConfigurationError) -> [String: ConfigContent] {
        var values: [String: ConfigContent] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw ConfigurationError(commandLine: "unexpected argument '\(argument)'; settings are given as --flag value (`photo-validator config` lists them)")
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let setting = setting(forFlag: name) else {
                throw ConfigurationError(commandLine: "unknown option '--\(name)'; `photo-validator config` lists every setting with its flag")
            }
            if value == nil {
                guard index < arguments.endIndex else {
                    throw ConfigurationError(commandLine: "missing value for '--\(name)': expected \(setting.expected)")
                }
                value = arguments[index]
                index += 1
            }
            values[setting.key] = try setting.content(ofFlagValue: value ?? "")
        }
        return values
    }

    /// The flags as `--help` lists them: the flag and its value on one line, then what it does,
    /// its variable and its default (`--help` wraps that line to the terminal).
    public var flagHelp: String {
        settings.filter { $0.flag != nil && !$0.isHidden }.map { setting in
            let tail = "[env: \(setting.environmentVariable)" + (setting.defaultValue.map { ", default: \($0)" } ?? "") + "]"
            return "  --\(setting.flag!) <\(setting.placeholder)>\n      \(setting.meaning.prefix(1).uppercased())\(setting.meaning.dropFirst()). \(tail)"
        }.joined(separator: "\n")
    }
}

extension SettingsCatalog {
    /// The values given for settings by key (nil where a flag was not given), typed by their
    /// settings, for commands that declare their flags one by one.
    ///
    /// - Throws: `ConfigurationError` for a value of the wrong type.
    public func values(_ given: [(key: String, value: String?)]) throws(ConfigurationError) -> [String: ConfigContent] {
        var values: [String: ConfigContent] = [:]
        for (key, value) in given {
            if let value { values[key] = try self[key].content(ofFlagValue: value) }
        }
        return values
    }
}
