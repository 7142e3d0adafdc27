/// The scores cache could not be used; the run stops before validating anything.
struct ScoresCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable class for scripts.
    enum Code: String, Sendable {
        /// The file could not be opened, created or migrated.
        case unavailable = "scores_cache_unavailable"
    }

    /// What went wrong.
    let code: Code
    /// The cache file.
    let path: String
    /// SQLite's or the file system's own words.
    let detail: String

    /// `code: what happened` and what to do about it.
    var description: String {
        switch code {
        case .unavailable:
            "\(code.rawValue): cannot open the scores cache at \(path) (\(detail)); check that its folder exists and is writable, "
                + "or give --scores-cache another path (a missing file is created; a corrupt one may be deleted, it only holds measurements)"
        }
    }
}
