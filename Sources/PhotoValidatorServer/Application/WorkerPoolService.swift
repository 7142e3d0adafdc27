import Logging
import PhotoValidation
import ServiceLifecycle

/// Runs the worker pool as a service: on graceful shutdown it finishes queued validations, then
/// stops the threads.
struct WorkerPoolService: Service {
    let pool: ValidationWorkerPool
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("stopping workers", metadata: ["in_flight": .stringConvertible(pool.inFlight)])
        try await pool.shutdown()
    }
}
