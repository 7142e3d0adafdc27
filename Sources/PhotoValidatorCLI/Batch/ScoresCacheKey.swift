import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The secret that signs each row of the scores cache (`ScoresCache`), kept outside the cache
/// file: 32 random bytes in a file only its owner may read (`scores_cache.key_file`), created on
/// first use. Whoever can write the cache but not read the key cannot make a row the cache trusts.
struct ScoresCacheKey: Sendable {
    /// The key's length in bytes (HMAC-SHA256's block-sized secret of 256 bits).
    static let byteCount = 32

    // Kept as bytes: swift-crypto's SymmetricKey is not Sendable.
    private let bytes: [UInt8]

    /// The key, for HMAC.
    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// The key `key` holds (tests, and the file's contents).
    init(_ key: SymmetricKey) {
        bytes = key.withUnsafeBytes { Array($0) }
    }

    /// A new random key.
    static func random() -> ScoresCacheKey {
        ScoresCacheKey(SymmetricKey(size: .bits256))
    }

    /// The key file when `scores_cache.key_file` is not set: `photo-validator/scores-cache.key` in
    /// `$XDG_STATE_HOME`, else in `~/.local/state`; nil when neither `XDG_STATE_HOME` (absolute) nor
    /// `HOME` is set.
    static func defaultPath(environment: [String: String]) -> String? {
        let state: String
        if let folder = environment["XDG_STATE_HOME"], folder.hasPrefix("/") {
            state = folder
        } else if let home = environment["HOME"], !home.isEmpty {
            state = (home as NSString).appendingPathComponent(".local/state")
        } else {
            return nil
        }
        return (state as NSString).appendingPathComponent("photo-validator/scores-cache.key")
    }

    /// The key in the file `keyFile` names (`scores_cache.key_file`), else in `defaultPath`,
    /// created when missing.
    ///
    /// - Throws: `ScoresCacheError` as `loadOrCreate(at:)` does, or
    ///   (`scores_cache_key_unavailable`) when no file is named and there is no default folder.
    static func resolve(keyFile: String?, environment: [String: String]) throws(ScoresCacheError) -> ScoresCacheKey {
        guard let path = keyFile ?? defaultPath(environment: environment) else {
            throw ScoresCacheError(code: .keyUnavailable, path: "$XDG_STATE_HOME/photo-validator/scores-cache.key",
                                   detail: "neither XDG_STATE_HOME nor HOME is set")
        }
        return try loadOrCreate(at: path)
    }

    /// The key in the file at `path`, created (with its folder, 0700, and the file 0600) when it
    /// is missing. Shards that start together create it once: each writes its own file and links
    /// it into place, and a shard that finds one already there reads that one.
    ///
    /// - Throws: `ScoresCacheError` (`scores_cache_key_unavailable`) when it can be neither read nor
    ///   created, or (`scores_cache_key_invalid`) when it is not a regular file of 32 bytes that
    ///   only its owner may read.
    static func loadOrCreate(at path: String) throws(ScoresCacheError) -> ScoresCacheKey {
        if let key = try load(at: path) { return key }
        try create(at: path)
        guard let key = try load(at: path) else {
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: "it was created but is gone")
        }
        return key
    }

    /// The key in the file at `path`, or nil when there is no such file.
    private static func load(at path: String) throws(ScoresCacheError) -> ScoresCacheKey? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: String(cString: strerror(errno)))
        }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw ScoresCacheError(code: .keyInvalid, path: path, detail: "not a regular file")
        }
        guard Int(status.st_size) == byteCount else {
            throw ScoresCacheError(code: .keyInvalid, path: path, detail: "\(status.st_size) bytes, not \(byteCount)")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw ScoresCacheError(code: .keyInvalid, path: path,
                                   detail: "mode \(String(status.st_mode & 0o777, radix: 8)): its group or others may read or write it")
        }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var done = 0
        while done < byteCount {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, byteCount - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw ScoresCacheError(code: .keyUnavailable, path: path, detail: count < 0 ? String(cString: strerror(errno)) : "it ended early")
            }
            done += count
        }
        return ScoresCacheKey(SymmetricKey(data: bytes))
    }

    /// Writes a new random key to `path` unless a file is there already.
    private static func create(at path: String) throws(ScoresCacheError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ScoresCacheError(code: .keyUnavailable, path: path, detail: "cannot create its folder: \(PhotoCollector.reason(error))")
            }
        }
        // Written whole under a name of its own, then linked into place: a reader never sees half a
        // key, and link (unlike rename) never replaces a key another shard made meanwhile.
        let staging = path + ".\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: String(cString: strerror(errno)))
        }
        defer { unlink(staging) }
        let written = random().key.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == byteCount, synced else {
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: "cannot write it: \(String(cString: strerror(errno)))")
        }
        guard link(staging, path) == 0 || errno == EEXIST else {
            throw ScoresCacheError(code: .keyUnavailable, path: path, detail: String(cString: strerror(errno)))
        }
    }
}
