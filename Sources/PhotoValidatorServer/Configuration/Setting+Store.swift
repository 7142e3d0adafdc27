import SharedStore
import ValidatorConfiguration

/// The settings of the store replicas share, each declared once: its catalog lists it and its read names it.
extension Setting {
    /// The setting `store.url`.
    package static let storeUrl = Setting("store.url", .text, secret: true,
        "PostgreSQL database that replicas share, postgres://USER@HOST:PORT/DATABASE (or ?host=/socket/folder); unset, each replica keeps its own state in the outbox's SQLite file (redacted: it may carry a password)")

    /// The setting `store.password`.
    package static let storePassword = Setting("store.password", .text, secret: true,
        "password of store.url's user, when the URL carries none")

    /// The setting `store.password_file`.
    package static let storePasswordFile = Setting("store.password_file", .path, flag: "store-password-file",
        "file holding store.url's password (read once at start)")

    /// The setting `store.pool_size`.
    package static let storePoolSize = Setting("store.pool_size", .integer(1...1000), default: "8", flag: "store-pool-size",
        "connections each replica opens to the shared store at most")

    /// The setting `store.tls`.
    package static let storeTls = Setting("store.tls", .choice(SharedStoreSettings.TLSMode.allCases.map(\.rawValue)), default: "require",
        flag: "store-tls",
        "encryption to the shared store over TCP, the server's certificate verified (a Unix socket is never encrypted)")

    /// The setting `store.tls_ca_file`.
    package static let storeTlsCaFile = Setting("store.tls_ca_file", .path, flag: "store-tls-ca-file",
        "PEM file of the certificate authorities the shared store's certificate is verified against, instead of the system's")

    /// The setting `store.timeout_seconds`.
    package static let storeTimeoutSeconds = Setting("store.timeout_seconds", .seconds, default: "2", flag: "store-timeout",
        "longest one call to the shared store may take, its connection and statements together (/readyz's check too); past it the connection is closed and the upload answered 503 store_unavailable")
}
