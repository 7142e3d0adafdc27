import Foundation

/// The unprivileged user and group a decode worker becomes when the daemon runs as root (a
/// container without `USER`, a developer's shell): named by `decode_worker_user`, `nobody` by
/// default. A daemon that is not root keeps its own identity in its workers.
package struct WorkerUser: Sendable, Equatable, Codable {
    /// The user id.
    package var uid: UInt32
    /// The group id.
    package var gid: UInt32

    /// `nobody` as this system names it (65534 where it has none).
    package static var nobody: WorkerUser {
        (try? WorkerUser(named: "nobody")) ?? WorkerUser(uid: 65534, gid: 65534)
    }

    /// A user by ids.
    package init(uid: UInt32, gid: UInt32) {
        self.uid = uid
        self.gid = gid
    }

    /// The user called `name` in the system's user database, or `uid[:gid]` given as numbers.
    ///
    /// - Throws: `SandboxError.startFailed` when there is no such user or it is root.
    package init(named name: String) throws(SandboxError) {
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        if let uid = parts.first.flatMap(UInt32.init) {
            self.init(uid: uid, gid: parts.count > 1 ? (UInt32(parts[1]) ?? uid) : uid)
        } else if let entry = getpwnam(name) {
            self.init(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        } else {
            throw .startFailed("decode_worker_user names '\(name)', which is no user on this system; name an unprivileged user (nobody by default) or give uid:gid")
        }
        guard uid != 0, gid != 0 else {
            throw .startFailed("decode_worker_user must not be root (uid and gid 0): decode workers drop every privilege")
        }
    }
}
