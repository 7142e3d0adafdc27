import ServiceLifecycle
import Synchronization

/// Whether the daemon is draining: set when graceful shutdown begins, read by `/readyz`.
public final class ServiceState: Service, Sendable {
    private let draining = Atomic<Bool>(false)

    /// A state that is not draining.
    public init() {}

    /// True once shutdown has begun.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Waits for graceful shutdown and marks the daemon as draining.
    public func run() async throws {
        try? await gracefulShutdown()
        draining.store(true, ordering: .releasing)
    }
}
