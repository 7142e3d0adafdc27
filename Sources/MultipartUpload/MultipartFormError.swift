/// Why a `multipart/form-data` body could not be read; the HTTP layer answers it 422.
public struct MultipartFormError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong with the body, for the client.
    public let description: String

    /// An error explained by `description`.
    public init(_ description: String) {
        self.description = description
    }
}
