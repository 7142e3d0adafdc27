import Configuration

extension SettingsCatalog {
    /// The settings that `arguments` (`--flag value` or `--flag=value`, as the command line left
    /// them) set, by key, typed as the reader reads them.
    ///
    /// - Parameter listing: what lists the accepted flags, as an unknown flag's error says.
    /// - Throws: `ConfigurationError` for an argument that is no setting's flag, lacks its value,
    ///   or has a value of the wrong type.
    package func values(fromFlags arguments: [String], listing: String = "`photo-validator config` lists every setting with its flag") throws(ConfigurationError) -> [String: ConfigContent] {
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
                throw ConfigurationError(commandLine: "unknown option '--\(name)'; \(listing)")
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

    /// `arguments` split into this catalog's setting flags, each with its value (`--flag value`
    /// given as `--flag=value`, a flag at the end without one left alone), and the other
    /// arguments, each part in order; nothing after `--` is a flag. A command with positional
    /// arguments hands the settings to `values(fromFlags:)` apart, so that a setting's value is
    /// never taken for a path.
    package func splittingFlags(_ arguments: [String]) -> (flags: [String], others: [String]) {
        var flags: [String] = []
        var others: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                others += arguments[(index - 1)...]
                break
            }
            guard argument.hasPrefix("--") else {
                others.append(argument)
                continue
            }
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            guard setting(forFlag: String(name)) != nil else {
                others.append(argument)
                continue
            }
            if argument.contains("=") || index == arguments.endIndex {
                flags.append(argument)
            } else {
                flags.append(argument + "=" + arguments[index])
                index += 1
            }
        }
        return (flags, others)
    }

    /// The flags as `--help` lists them: the flag and its value on one line, then what it does,
    /// its variable and its default (`--help` wraps that line to the terminal).
    package var flagHelp: String {
        settings.filter { $0.flag != nil && !$0.isHidden }.map { setting in
            let tail = "[env: \(setting.environmentVariable)" + (setting.defaultValue.map { ", default: \($0)" } ?? "") + "]"
            return "  --\(setting.flag!) <\(setting.placeholder)>\n      \(setting.meaning.prefix(1).uppercased())\(setting.meaning.dropFirst()). \(tail)"
        }.joined(separator: "\n")
    }
}
