import Foundation
import Logging
import ServiceLifecycle

/// Ends the process when a graceful shutdown has not finished within its deadline, whatever is
/// still in flight: a handler stuck in a synchronous loop never sees the cancellation that the
/// service group sends, and the operator's `systemctl stop` must not wait on it.
///
/// The wait runs on a thread of its own, not on Swift's cooperative pool, which the stuck work may
/// be holding. Only `serve` runs it; tests that build the application never exit through it.
struct ShutdownDeadline: Service {
    /// How long after shutdown begins the process may live.
    let deadline: Duration
    /// Where the forced exit is reported.
    let logger: Logger

    /// Waits for graceful shutdown, then arms the deadline.
    func run() async throws {
        try? await gracefulShutdown()
        let deadline = deadline, logger = logger
        let thread = Thread {
            Thread.sleep(forTimeInterval: Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18)
            logger.critical("shutdown did not finish within \(deadline) of SIGTERM (shutdown.grace_seconds); exiting with work still in flight")
            exit(75)
        }
        thread.name = "pv-shutdown-deadline"
        thread.start()
    }
}
