import Foundation

/// The parts of a PostgreSQL URL: who connects, to which database, over TCP or a Unix socket.
package struct SharedStoreEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// Where the server listens.
    package enum Location: Sendable, Equatable {
        /// A host name or address and a port.
        case tcp(host: String, port: Int)
        /// The path of the server's socket file (`FOLDER/.s.PGSQL.PORT`).
        case socket(path: String)
    }

    /// The role to connect as.
    package let username: String
    /// The password the URL carries, if any.
    package let password: String?
    /// The database (the role's name when the URL names none, as libpq does).
    package let database: String
    /// Where the server listens.
    package let location: Location

    /// The parts of `url`: `postgres://` or `postgresql://`, a user, a host and port or a
    /// `?host=/folder` of a Unix socket, and a database.
    ///
    /// - Throws: `SharedStoreError.invalidURL` naming what is wrong, without the password.
    package init(url: String) throws(SharedStoreError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL("store.url must be a postgres:// URL (postgres://USER@HOST:PORT/DATABASE)")
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .invalidURL("store.url names no user (postgres://USER@HOST/DATABASE)")
        }
        username = user
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : path
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw .invalidURL("store.url's port \(port) is not a TCP port") }
        let socketFolder = components.queryItems?.first { $0.name == "host" }?.value
        if let socketFolder, socketFolder.hasPrefix("/") {
            location = .socket(path: socketFolder + "/.s.PGSQL.\(port)")
        } else if let host = socketFolder ?? components.host, !host.isEmpty {
            location = .tcp(host: host, port: port)
        } else {
            throw .invalidURL("store.url names no host (postgres://USER@HOST/DATABASE, or ?host=/socket/folder)")
        }
    }

    /// The URL without its password, for logs and /readyz.
    package var description: String {
        switch location {
        case .tcp(let host, let port): "postgres://\(username)@\(host):\(port)/\(database)"
        case .socket(let path): "postgres://\(username)@/\(database) (socket \(path))"
        }
    }
}
