import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import TestFixtures
import Testing
@testable import SignalForwarding

/// The delivery loop at rest, running as the daemon runs it.
@Suite("Delivery loop at rest", .integration, .timeLimit(.minutes(10)))
struct DeliveryIdleTests {
    /// A daemon's outbox, counting the delivery loop's polls.
    final class CountingQueue: SignalQueue {
        let outbox: SignalOutbox
        let polls = Mutex(0)
        init(outbox: SignalOutbox) { self.outbox = outbox }
        var location: String { outbox.location }
        func dueSignals(now: Date) async throws -> [OutboxEntry] {
            polls.withLock { $0 += 1 }
            return try await outbox.dueSignals(now: now)
        }
        func nextDueDate() async throws -> Date? { try await outbox.nextDueDate() }
        func markDelivered(_ id: Int64, now: Date) async throws { try await outbox.markDelivered(id, now: now) }
        func scheduleRetry(_ id: Int64, at next: Date, error: String) async throws { try await outbox.scheduleRetry(id, at: next, error: error) }
        func markDead(_ id: Int64, reason: String, now: Date) async throws { try await outbox.markDead(id, reason: reason, now: now) }
        func pruneFinished(now: Date) async throws { try await outbox.pruneFinished(now: now) }
        func counts(now: Date) async throws -> OutboxCounts { try await outbox.counts(now: now) }
        func deadLetters(limit: Int) async throws -> [OutboxEntry] { try await outbox.deadLetters(limit: limit) }
        func retryDeadLetters(photoID: String?, now: Date) async throws -> Int { try await outbox.retryDeadLetters(photoID: photoID, now: now) }
    }

    @Test("after a promised signal is delivered, the idle loop polls about once a second, not without pause")
    func idleAfterWakeup() async throws {
        let receiver = WebhookReceiver(secret: "s")
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let queue = CountingQueue(outbox: try SignalOutbox(path: temporaryOutboxPath()))
            let target = WebhookSignalTarget(url: "http://127.0.0.1:\(try #require(client.port))/hook", secret: "s")
            let delivery = SignalDeliveryService(outbox: queue, target: target, policy: RetryPolicy(), logger: Logger(label: "test"))
            let running = Task { try await delivery.run() }
            // Let the loop reach its idle wait, then promise a signal the way an upload does: the
            // early wake-up is what used to leave the loop polling without pause.
            try await Task.sleep(for: .milliseconds(300))
            try await queue.outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("idle-1"))
            delivery.signalEnqueued()
            #expect(try await poll { receiver.deliveries.count == 1 })
            let before = queue.polls.withLock { $0 }
            try await Task.sleep(for: .seconds(3))
            let idlePolls = queue.polls.withLock { $0 } - before
            running.cancel()
            _ = try? await running.value
            // One poll a second when idle, a few more at most; a busy machine makes fewer, never more.
            // The spinning loop made tens of thousands.
            #expect(idlePolls <= 10, "the idle loop polled the outbox \(idlePolls) times in 3 s")
            #expect(try await queue.outbox.counts().delivered == 1)
        }
    }
}
