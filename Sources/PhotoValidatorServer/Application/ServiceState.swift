import ServiceLifecycle
import Synchronization

/// Whether the daemon is draining: set when graceful shutdown begins, read by `/readyz`.
package final class ServiceState: Service, Sendable {
    private let draining = Atomic<Bool>(false)

    /// A state that is not draining.
    package init() {}

    /// True once shutdown has begun.
    package var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Waits for graceful shutdown and marks the daemon as draining.
    package func run() async throws {
        try? await gracefulShutdown()
        draining.store(true, ordering: .releasing)
    }
}
