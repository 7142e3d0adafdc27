import Logging
import PhotoValidation
import ServiceLifecycle

/// Runs the worker pool as a service: on graceful shutdown it finishes queued validations, then
/// stops the threads (threads stuck past their deadline are not waited for).
struct WorkerPoolService: Service {
    let pool: ValidationWorkerPool
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("stopping workers", metadata: ["in_flight": .stringConvertible(pool.inFlight)])
        await pool.shutdown()
        let health = pool.health
        if health.overdueJobs > 0 {
            logger.warning("leaving workers stuck in a decoder to the process exit", metadata: ["overdue_jobs": .stringConvertible(health.overdueJobs)])
        }
    }
}
