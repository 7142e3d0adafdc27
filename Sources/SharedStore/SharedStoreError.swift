/// The shared store could not be used; nothing was promised or remembered.
package enum SharedStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The settings do not name a usable database (a bad URL or TLS file).
    case invalidURL(String)
    /// The database could not be reached, read or written.
    case unavailable(String)
    /// The database's schema is newer than this build knows: a newer replica migrated it.
    case schemaTooNew(found: Int, known: Int)

    /// What happened.
    package var description: String {
        switch self {
        case .invalidURL(let detail): detail
        case .unavailable(let detail): detail
        case .schemaTooNew(let found, let known):
            "the shared store's schema is at version \(found), newer than this build's \(known): upgrade this replica"
        }
    }
}
