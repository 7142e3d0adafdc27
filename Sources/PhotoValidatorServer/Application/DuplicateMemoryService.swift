import Foundation
import Logging
import ServiceLifecycle

/// Forgets the duplicate memory's expired photos on a timer, off every request's path (a prune
/// writes the outbox's database, which a request must not wait for), until graceful shutdown.
struct DuplicateMemoryService: Service {
    /// The check whose memory is pruned.
    let check: DuplicateCheck
    /// How often.
    let interval: Duration
    /// Where a failed prune is reported.
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do {
                try await check.prune()
            } catch {
                logger.warning("could not forget expired fingerprints; the next prune tries again", metadata: ["error": .string("\(error)")])
            }
        }
    }
}
