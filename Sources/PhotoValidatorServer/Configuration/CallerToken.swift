import ValidatorConfiguration

/// A bearer token with the name of the caller it belongs to (`auth.tokens`): the name is the
/// caller's identity in fair admission, so each holder of a token of its own gets its own turn.
package struct CallerToken: Sendable, Equatable {
    /// The caller's name, such as `gateway` or `batch-import`.
    package let name: String
    /// The bearer token that caller sends.
    package let token: String

    /// A token for the caller `name`.
    package init(name: String, token: String) {
        self.name = name
        self.token = token
    }

    /// The tokens of `text`: `name:token` entries separated by commas, spaces or new lines; a name
    /// is 1 to 64 letters, digits, `.`, `_` or `-`, and names and tokens are each used once.
    ///
    /// - Throws: `ConfigurationError` for `source` naming the entry at fault by its position and
    ///   name, never showing a token.
    package static func list(_ text: String, source: String) throws(ConfigurationError) -> [CallerToken] {
        let entries = text.split { $0 == "," || $0.isWhitespace }
        var tokens: [CallerToken] = []
        for (index, entry) in entries.enumerated() {
            let place = "entry \(index + 1)"
            guard let colon = entry.firstIndex(of: ":") else {
                throw ConfigurationError(source: source, value: "<redacted> (\(place))", expected: "name:token entries separated by commas or new lines")
            }
            let name = String(entry[..<colon])
            let token = String(entry[entry.index(after: colon)...])
            guard (1...64).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                throw ConfigurationError(source: source, value: "<redacted> (\(place))", expected: "a name of 1 to 64 letters, digits, '.', '_' or '-' before the ':'")
            }
            guard !token.isEmpty else {
                throw ConfigurationError(source: source, value: "\(name):<empty>", expected: "a non-empty token after the ':'")
            }
            guard !tokens.contains(where: { $0.name == name }) else {
                throw ConfigurationError(source: source, value: "\(name):<redacted>", expected: "each caller named once")
            }
            guard !tokens.contains(where: { $0.token == token }) else {
                throw ConfigurationError(source: source, value: "\(name):<redacted>", expected: "a token of its own for each caller")
            }
            tokens.append(CallerToken(name: name, token: token))
        }
        return tokens
    }
}
