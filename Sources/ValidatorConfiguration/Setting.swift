import Configuration

/// One configuration setting, declared once: its key, what it holds and accepts, its default, its
/// flag and its meaning. The reader takes ranges and choices from it, the command-line flags are
/// parsed by it, its default is what a read returns when nothing sets it, and `photo-validator config`
/// and docs/settings.md are printed from it, so adding a setting is one declaration plus the
/// line that reads it. Each is a `static let` of `Setting` that the catalog lists and the read names,
/// so its key is written once.
package struct Setting: Sendable, Equatable {
    /// What a setting holds and which values it accepts.
    package enum Kind: Sendable, Equatable {
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A number within the range.
        case number(ClosedRange<Double>)
        /// A number of seconds above 0 and at most 1,000,000.
        case seconds
        /// Free text (a host, a URL, a name).
        case text
        /// A path to a file or socket.
        case path
        /// One of the listed words, compared without case.
        case choice([String])
        /// `true` or `false`.
        case boolean
    }

    /// The configuration key, such as `http.port`.
    package let key: String
    /// What the setting holds and accepts.
    package let kind: Kind
    /// The built-in default as people read it (the literal default, or how the default is
    /// computed), or nil when there is none.
    package let defaultValue: String?
    /// The built-in default as a value of its kind (as a flag would give it), which a read returns
    /// when nothing sets the setting; nil when the default is computed where the setting is read
    /// (such as "16 per worker") or there is none.
    package let literalDefault: String?
    /// What the setting does.
    package let meaning: String
    /// The long flag that sets it (`port` for `--port`), or nil when no flag may: a secret would
    /// show in `ps`.
    package let flag: String?
    /// True when its value is redacted wherever it is shown.
    package let isSecret: Bool
    /// True when `--help` leaves its flag out (a switch for tests, not for operators).
    package let isHidden: Bool

    /// A setting whose default is `defaultValue` (a value of `kind`), or is computed where it is
    /// read as `computed` describes; its flag is `flag`, else the key with `-` for `.` and `_`,
    /// except for a secret, which has a flag only when one is named (a URL that may carry a token,
    /// redacted but settable).
    package init(_ key: String, _ kind: Kind, default defaultValue: String? = nil, computed: String? = nil, flag: String? = nil, secret: Bool = false, hidden: Bool = false, _ meaning: String) {
        precondition(defaultValue == nil || computed == nil, "setting \(key) has both a literal and a computed default")
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue ?? computed
        self.literalDefault = defaultValue
        self.meaning = meaning
        self.flag = flag ?? (secret ? nil : key.map { $0 == "." || $0 == "_" ? "-" : $0 }.reduce(into: "") { $0.append($1) })
        self.isSecret = secret
        self.isHidden = hidden
    }

    /// The environment variable that sets it: `PHOTO_VALIDATOR_` and the key in upper case, with
    /// `_` for `.`.
    package var environmentVariable: String {
        ConfigurationSources.environmentName(for: key)
    }

    /// What it accepts, as an error message ends: "a whole number from 1 to 1024".
    package var expected: String {
        switch kind {
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): "a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
        case .seconds: "a number of seconds above 0 and at most 1000000"
        case .text: "text"
        case .path: "a path"
        case .choice(let choices): "one of " + choices.joined(separator: ", ")
        case .boolean: "true or false"
        }
    }

    /// The placeholder of its flag's value in `--help`.
    var placeholder: String {
        switch kind {
        case .integer: "n"
        case .number: "x"
        case .seconds: "seconds"
        case .text: "text"
        case .path: "path"
        case .choice(let choices): choices.joined(separator: "|")
        case .boolean: "true|false"
        }
    }

    /// `text` as the value a flag gives this setting, typed as the reader reads it.
    ///
    /// - Throws: `ConfigurationError` naming the flag and what it accepts.
    package func content(ofFlagValue text: String) throws(ConfigurationError) -> ConfigContent {
        let invalid = ConfigurationError(source: "--\(flag ?? key)", value: text, expected: expected)
        switch kind {
        case .integer:
            guard let value = Int(text) else { throw invalid }
            return .int(value)
        case .number, .seconds:
            guard let value = Double(text), value.isFinite else { throw invalid }
            return .double(value)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw invalid
            }
        case .text, .path, .choice:
            return .string(text)
        }
    }

    /// `number` as a default is written: without a fraction when it is whole (`24`, `0.25`).
    package static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
