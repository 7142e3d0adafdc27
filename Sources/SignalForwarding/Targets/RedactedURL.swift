import Foundation

/// A URL as it may appear in logs, errors and admin views: user-info and query values, where
/// tokens live, replaced by `<redacted>`; the fragment dropped.
package struct RedactedURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL without its secrets.
    package let description: String

    /// Redacts `url`; text that does not parse as a URL is withheld whole.
    package init(_ url: String) {
        guard var components = URLComponents(string: url), components.host != nil else {
            description = "<redacted URL>"
            return
        }
        if components.user != nil || components.password != nil {
            components.user = "<redacted>"
            components.password = nil
        }
        if let items = components.queryItems {
            components.queryItems = items.map { URLQueryItem(name: $0.name, value: $0.value == nil ? nil : "<redacted>") }
        }
        components.fragment = nil
        // The brackets are percent-encoded by URLComponents; they read better as typed.
        description = (components.string ?? "<redacted URL>").replacingOccurrences(of: "%3Credacted%3E", with: "<redacted>")
    }
}
