/// The scores cache could not be used; the run stops before validating anything.
struct ScoresCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable class for scripts.
    enum Code: String, Sendable {
        /// The file could not be opened, created or migrated.
        case unavailable = "scores_cache_unavailable"
        /// The key file could not be read or created.
        case keyUnavailable = "scores_cache_key_unavailable"
        /// The key file is not a key: not a regular file of exactly 32 bytes, or others may read it.
        case keyInvalid = "scores_cache_key_invalid"
    }

    /// What went wrong.
    let code: Code
    /// The cache file, or the key file for the key's codes.
    let path: String
    /// SQLite's or the file system's own words, or what is wrong with the key file.
    let detail: String

    /// `code: what happened` and what to do about it.
    var description: String {
        switch code {
        case .unavailable:
            "\(code.rawValue): cannot open the scores cache at \(path) (\(detail)); check that its folder exists and is writable, "
                + "or give --scores-cache another path (a missing file is created; a corrupt one may be deleted, it only holds measurements)"
        case .keyUnavailable:
            "\(code.rawValue): cannot read or create the scores cache's key at \(path) (\(detail)); check that its folder can be "
                + "created and written, or give --scores-cache-key-file (PHOTO_VALIDATOR_SCORES_CACHE_KEY_FILE) another path "
                + "(a missing file is created with a new random key)"
        case .keyInvalid:
            "\(code.rawValue): the scores cache's key at \(path) is not usable (\(detail)); it must be a regular file of exactly "
                + "32 random bytes that only its owner may read (chmod 600 \(path)); delete it to have a new one created "
                + "(rows signed with the old key are then measured again)"
        }
    }
}
