/// Why a `multipart/form-data` body could not be read; the HTTP layer answers a bad boundary 400
/// (before the body is read) and a malformed body 422.
package struct MultipartFormError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in kind.
    package enum Kind: Sendable, Equatable {
        /// The Content-Type's boundary is missing, too long or holds characters RFC 2046 does not allow.
        case badBoundary
        /// The body does not parse as multipart/form-data.
        case malformedBody
    }

    /// What was wrong with the body, for the client.
    package let description: String
    /// What went wrong, in kind.
    package let kind: Kind

    /// An error of `kind` explained by `description`.
    package init(_ description: String, kind: Kind = .malformedBody) {
        self.description = description
        self.kind = kind
    }
}
