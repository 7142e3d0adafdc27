import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Sends the outbox's pending signals to the target: right away when one is promised, and again
/// with backoff after failures, across restarts, until delivered or given up. A service: graceful
/// shutdown stops it between attempts, and the next start resumes from the outbox. Its HTTP
/// client lives exactly as long as `run()`, so a service built and never run holds no connection
/// pool that would have to be shut down.
package final class SignalDeliveryService: Service, Sendable {
    /// The queue read from: this replica's outbox, or the one replicas share.
    package let outbox: any SignalQueue
    /// Where signals go.
    package let target: any SignalTarget
    /// Backoff and maximum age.
    package let policy: RetryPolicy
    private let logger: Logger
    private let observe: @Sendable (DeliveryEvent) -> Void
    private let wakeup = Wakeup()

    /// A service delivering from `outbox` to `target`.
    package init(outbox: any SignalQueue, target: any SignalTarget, policy: RetryPolicy, logger: Logger, observe: @escaping @Sendable (DeliveryEvent) -> Void = { _ in }) {
        self.outbox = outbox
        self.target = target
        self.policy = policy
        self.logger = logger
        self.observe = observe
    }

    /// Tells the service a signal was just promised, so it is sent without waiting for a poll.
    package func signalEnqueued() {
        wakeup.signal()
    }

    /// A client for delivery on the shared event loop group. A refused connection fails the attempt
    /// at once and the outbox's backoff applies: the pool's own retries would hold each attempt
    /// until its 10-second deadline, one signal after another while the target is down.
    package static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Delivers until graceful shutdown, through a client made here and shut down on the way out.
    package func run() async throws {
        logger.info("signal delivery started", metadata: ["target": .string(target.name), "outbox": .string(outbox.location)])
        let client = Self.makeClient()
        await withGracefulShutdownHandler {
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                do {
                    let sent = try await deliverDue(using: client)
                    if sent == 0 {
                        await wakeup.wait(upTo: try await idleWait())
                    }
                } catch {
                    logger.error("signal delivery cannot use the outbox; trying again in 1 s", metadata: ["error": .string("\(error)")])
                    await wakeup.wait(upTo: .seconds(1))
                }
            }
        } onGracefulShutdown: {
            self.wakeup.signal()
        }
        do {
            try await client.shutdown()
        } catch {
            logger.warning("signal delivery client shutdown", metadata: ["error": .string("\(error)")])
        }
        logger.info("signal delivery stopped")
    }

    /// Makes one attempt through `client` for every signal due now; returns how many were attempted.
    @discardableResult
    package func deliverDue(now: Date = Date(), using client: HTTPClient) async throws -> Int {
        let due = try await outbox.dueSignals(now: now)
        for entry in due {
            if Task.isShuttingDownGracefully { break }
            // An outcome that cannot be written would send the same signals again at once.
            try await attempt(entry, using: client)
        }
        if !due.isEmpty {
            try await outbox.pruneFinished(now: Date())
        }
        return due.count
    }

    private func attempt(_ entry: OutboxEntry, using client: HTTPClient) async throws {
        let outcome = await target.deliver(entry, using: client)
        let now = Date()
        do {
            switch outcome {
            case .delivered:
                try await outbox.markDelivered(entry.id, now: now)
                let latency = Duration.milliseconds(Int64(now.timeIntervalSince(entry.enqueuedAt) * 1000))
                observe(.delivered(photoID: entry.photo.photoID, attempts: entry.attempts + 1, latency: latency))
                logger.debug("signal delivered", metadata: ["photo_id": .string(entry.photo.photoID), "workflow_id": .string(entry.workflowID)])
            case .reject(let failure):
                try await outbox.markDead(entry.id, reason: failure.message, now: now)
                observe(.deadLettered(photoID: entry.photo.photoID, failure: failure))
                logger.error("signal rejected; moved to dead letters", metadata: [
                    "photo_id": .string(entry.photo.photoID), "workflow_id": .string(entry.workflowID), "reason": .string(failure.message),
                ])
            case .retry(let failure):
                if now.timeIntervalSince(entry.ageFrom) >= policy.maximumAge / .seconds(1) {
                    let final = DeliveryFailure(
                        .expired,
                        "undelivered for \(Int((policy.maximumAge / .seconds(1)) / 3600)) h after \(entry.attempts + 1) attempts; last error: \(failure.message)"
                    )
                    try await outbox.markDead(entry.id, reason: final.message, now: now)
                    observe(.deadLettered(photoID: entry.photo.photoID, failure: final))
                    logger.error("signal expired; moved to dead letters", metadata: ["photo_id": .string(entry.photo.photoID), "reason": .string(final.message)])
                } else {
                    let delay = policy.delay(afterAttempts: entry.attempts + 1)
                    try await outbox.scheduleRetry(entry.id, at: now.addingTimeInterval(delay / .seconds(1)), error: failure.message)
                    observe(.failed(photoID: entry.photo.photoID, failure: failure))
                    logger.warning("signal delivery failed; will retry", metadata: [
                        "photo_id": .string(entry.photo.photoID), "attempt": .stringConvertible(entry.attempts + 1),
                        "retry_in_s": .string(String(format: "%.1f", delay / .seconds(1))), "reason": .string(failure.message),
                    ])
                }
            }
        } catch {
            logger.error("cannot record a delivery outcome; the signal will be tried again", metadata: ["photo_id": .string(entry.photo.photoID), "error": .string("\(error)")])
            throw error
        }
    }

    /// How long to sleep when nothing is due: until the next due signal, at most a second.
    private func idleWait() async throws -> Duration {
        guard let next = try await outbox.nextDueDate() else { return .seconds(1) }
        let wait = next.timeIntervalSinceNow
        return .milliseconds(Int64(min(1, max(0.01, wait)) * 1000))
    }
}
