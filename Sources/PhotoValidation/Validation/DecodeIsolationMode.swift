/// Where photos are decoded: the `decode_isolation` setting.
public enum DecodeIsolationMode: String, Sendable, CaseIterable, Codable {
    /// In sandboxed worker processes started from the same executable (the default of `serve`,
    /// `validate`, `tune` and `bench`).
    case process
    /// In the calling process: what a library user of `PhotoValidator(settings:)` gets.
    case none
}
