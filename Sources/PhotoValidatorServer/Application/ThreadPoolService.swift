import Logging
import PhotoValidation
import ServiceLifecycle
import ValidationThreads

/// Runs the worker pool as a service: starts its threads (validations submitted earlier wait in
/// its queue), and on graceful shutdown finishes queued validations, then stops the threads
/// (threads stuck past their deadline are not waited for).
struct ThreadPoolService: Service {
    let pool: ValidationThreadPool
    let logger: Logger

    func run() async throws {
        pool.start()
        try? await gracefulShutdown()
        logger.info("stopping workers", metadata: ["in_flight": .stringConvertible(pool.inFlight)])
        await pool.shutdown()
        let health = pool.health
        if health.overdueJobs > 0 {
            logger.warning("leaving workers stuck in a decoder to the process exit", metadata: ["overdue_jobs": .stringConvertible(health.overdueJobs)])
        }
    }
}
