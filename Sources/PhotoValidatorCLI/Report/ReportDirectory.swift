import Foundation

/// An open folder, and the only place a report touches the file system: every name is resolved
/// relative to the folder's descriptor (`openat`, `mkdirat`, `unlinkat`, `renameat`, `fstatat`),
/// never followed through a symbolic link in its last part (`O_NOFOLLOW`,
/// `AT_SYMLINK_NOFOLLOW`), so what another process does to the path after the folder was opened
/// cannot send a write or a removal elsewhere. Names are single path components.
final class ReportDirectory {
    /// What is at a name, without following a link there.
    enum Kind: Equatable {
        /// A regular file, with how many hard links it has.
        case file(links: Int)
        /// A folder.
        case folder
        /// A symbolic link.
        case link
        /// A device, pipe or socket.
        case other

        /// The kind a `stat` describes.
        init(_ status: stat) {
            switch status.st_mode & S_IFMT {
            case S_IFREG: self = .file(links: Int(status.st_nlink))
            case S_IFDIR: self = .folder
            case S_IFLNK: self = .link
            default: self = .other
            }
        }
    }

    /// The folder's descriptor, closed with the object.
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Opens the folder at `path`, creating it and its missing parents (mode 755). The parents are
    /// the caller's path and are followed; the folder itself must not be a symbolic link.
    static func open(path: String) throws(POSIXError) -> ReportDirectory {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var descriptor = Glibc.open(path, flags)
        if descriptor < 0 && errno == ENOENT {
            var prefix = path.hasPrefix("/") ? "/" : ""
            for component in path.split(separator: "/") {
                prefix += component
                guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else { throw Self.lastError() }
                prefix += "/"
            }
            descriptor = Glibc.open(path, flags)
        }
        guard descriptor >= 0 else { throw Self.lastError() }
        return ReportDirectory(descriptor: descriptor)
    }

    /// What is at `path` itself (not followed), or nil when nothing is; for telling a link from
    /// a file after `open(path:)` failed.
    static func kind(atPath path: String) -> Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Kind(status)
    }

    /// The folder `name` inside this one, created (mode 755) when missing; a link there is not followed.
    func folder(_ name: String) throws(POSIXError) -> ReportDirectory {
        guard mkdirat(descriptor, name, 0o755) == 0 || errno == EEXIST else { throw Self.lastError() }
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else { throw Self.lastError() }
        return ReportDirectory(descriptor: child)
    }

    /// What is at `name`, or nil when nothing is.
    func kind(_ name: String) throws(POSIXError) -> Kind? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw Self.lastError()
        }
        return Kind(status)
    }

    /// The names in the folder, but `.` and `..`.
    func names() throws(POSIXError) -> [String] {
        // `fdopendir` takes the descriptor it is given: it gets its own, so this one stays open.
        let own = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { throw Self.lastError() }
        guard let stream = fdopendir(own) else {
            let error = Self.lastError()
            close(own)
            throw error
        }
        defer { closedir(stream) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
            errno = 0
        }
        guard errno == 0 else { throw Self.lastError() }
        return names
    }

    /// Creates the file `name` (mode 644) and writes `bytes` to it; fails with `EEXIST` when
    /// anything, a link included, is already there.
    func create(_ name: String, bytes: [UInt8]) throws(POSIXError) {
        let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Self.lastError() }
        try Self.write(bytes, to: file)
    }

    /// Writes `bytes` over the regular file `name` of one link, reusing its inode (writing over a
    /// file costs the file system less than a fresh one). Returns false, writing nothing, when
    /// `name` is a file of more links (a snapshot's `cp -al` shares it) or is gone; fails with
    /// `ELOOP` for a link and `EISDIR` or `ENXIO` for a folder or pipe.
    func overwrite(_ name: String, bytes: [UInt8]) throws(POSIXError) -> Bool {
        // O_NONBLOCK: a pipe put there must not hold the open; without O_TRUNC until the links are counted.
        let file = openat(descriptor, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return false }
            throw Self.lastError()
        }
        var status = stat()
        guard fstat(file, &status) == 0 else {
            let error = Self.lastError()
            close(file)
            throw error
        }
        guard Kind(status) == .file(links: 1) else {
            close(file)
            if case .file = Kind(status) { return false }
            throw POSIXError(.EISDIR)
        }
        guard ftruncate(file, 0) == 0 else {
            let error = Self.lastError()
            close(file)
            throw error
        }
        try Self.write(bytes, to: file)
        return true
    }

    /// Appends `bytes` to the regular file `name` (created, mode 644, when missing).
    func append(_ name: String, bytes: [UInt8]) throws(POSIXError) {
        let file = openat(descriptor, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Self.lastError() }
        try Self.write(bytes, to: file)
    }

    /// The bytes of the regular file `name`, or nil when nothing is there; fails with `ELOOP`
    /// for a link and `EFBIG` past `limit` bytes.
    func read(_ name: String, limit: Int) throws(POSIXError) -> [UInt8]? {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.lastError()
        }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Self.lastError() }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw POSIXError(.EFBIG) }
        }
    }

    /// Removes the name `name` (a file's entry, never a folder's).
    func remove(_ name: String) throws(POSIXError) {
        guard unlinkat(descriptor, name, 0) == 0 else { throw Self.lastError() }
    }

    /// Gives the entry `name` the name `newName` in the same folder, replacing what `newName` was.
    func rename(_ name: String, to newName: String) throws(POSIXError) {
        guard renameat(descriptor, name, descriptor, newName) == 0 else { throw Self.lastError() }
    }

    /// Writes all of `bytes` to `file` and closes it.
    private static func write(_ bytes: [UInt8], to file: Int32) throws(POSIXError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let error = result == 0 ? POSIXError(.EIO) : Self.lastError()
                close(file)
                throw error
            }
            written += result
        }
        guard close(file) == 0 else { throw Self.lastError() }
    }

    /// `errno` as an error.
    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
