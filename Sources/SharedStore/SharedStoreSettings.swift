import Foundation
import PostgresNIO

/// How to reach the PostgreSQL database that replicas share (`store.url` and its companions): a
/// value read from the settings, turned into the client's configuration by `clientConfiguration()`.
package struct SharedStoreSettings: Sendable, Equatable {
    /// Whether and how the connection is encrypted (`store.tls`).
    package enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP: only for a database on loopback or a private network.
        case disable
        /// TLS when the server offers it, the certificate verified against the system's roots.
        case prefer
        /// TLS always, the certificate verified against the system's roots (or `store.tls_ca_file`).
        case require
    }

    /// Where the database is, as a URL: `postgres://USER@HOST:PORT/DATABASE`, or a Unix socket's
    /// folder as libpq takes it, `postgres://USER@/DATABASE?host=/run/postgresql`.
    package var url: String
    /// The password, when not in the URL (`store.password` or `store.password_file`).
    package var password: String?
    /// Connections each replica opens at most (`store.pool_size`).
    package var poolSize: Int
    /// Encryption over TCP (`store.tls`); a Unix socket is never encrypted.
    package var tls: TLSMode
    /// A PEM file of the certificate authorities to trust instead of the system's (`store.tls_ca_file`).
    package var tlsCAFile: String?
    /// The longest one call to the database may take, its connection and its statements together
    /// (`store.timeout_seconds`): past it the connection is dropped and the caller told the store
    /// is unavailable, so a database that stops answering (a partition, a paused machine) holds no
    /// upload and no /readyz longer.
    package var timeout: Duration

    /// Settings from their parts.
    package init(url: String, password: String? = nil, poolSize: Int = 8, tls: TLSMode = .require, tlsCAFile: String? = nil,
                 timeout: Duration = .seconds(2)) {
        self.url = url
        self.password = password
        self.poolSize = max(1, poolSize)
        self.tls = tls
        self.tlsCAFile = tlsCAFile
        self.timeout = max(.milliseconds(1), timeout)
    }

    /// The parts of `url`, checked.
    ///
    /// - Throws: `SharedStoreError.invalidURL` for a URL that is not a PostgreSQL one.
    package func endpoint() throws(SharedStoreError) -> SharedStoreEndpoint {
        try SharedStoreEndpoint(url: url)
    }

    /// The client's configuration: the URL's endpoint, the password (the setting's over the
    /// URL's), the TLS mode and the pool size.
    ///
    /// - Throws: `SharedStoreError.invalidURL` for a bad URL or TLS file.
    package func clientConfiguration() throws(SharedStoreError) -> PostgresClient.Configuration {
        let endpoint = try endpoint()
        let secret = password ?? endpoint.password
        var configuration: PostgresClient.Configuration
        switch endpoint.location {
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: endpoint.username, password: secret, database: endpoint.database)
        case .tcp(let host, let port):
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            if let tlsCAFile {
                do {
                    tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(tlsCAFile))
                } catch {
                    throw .invalidURL("store.tls_ca_file \(tlsCAFile) is not a readable PEM file: \(error)")
                }
            }
            let mode: PostgresClient.Configuration.TLS = switch tls {
            case .disable: .disable
            case .prefer: .prefer(tlsConfiguration)
            case .require: .require(tlsConfiguration)
            }
            configuration = .init(host: host, port: port, username: endpoint.username, password: secret, database: endpoint.database, tls: mode)
        }
        configuration.options.maximumConnections = poolSize
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
