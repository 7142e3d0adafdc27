import Logging
import SharedStore
import SignalForwarding

/// The daemon's side of signal forwarding: promises signals in the outbox and wakes delivery.
package struct SignalForwarder: Sendable {
    /// Where signals are promised: this replica's outbox file, or the store replicas share.
    private enum Store: Sendable {
        case local(SignalOutbox)
        case shared(SharedOutbox)

        var queue: any SignalQueue {
            switch self {
            case .local(let outbox): outbox
            case .shared(let shared): shared
            }
        }
    }

    private let store: Store
    /// The service that delivers from it.
    package let delivery: SignalDeliveryService
    /// The signal name.
    package let signalName: String

    /// This replica's durable outbox; nil with `store.url`, when no outbox file is opened at all.
    package var outbox: SignalOutbox? {
        if case .local(let outbox) = store { return outbox }
        return nil
    }

    /// The outbox replicas share (`store.url`), which then replaces `outbox`: every replica
    /// delivers what any promised, and answers a repeat of an upload any answered.
    package var shared: SharedOutbox? {
        if case .shared(let shared) = store { return shared }
        return nil
    }

    /// The queue delivery reads and the admin view shows: the shared one when there is one.
    package var queue: any SignalQueue { store.queue }

    /// Opens the outbox (or, with `sharedStore`, uses the one replicas share and opens no outbox file) and builds the target
    /// `configuration` names, or returns nil when forwarding is off.
    ///
    /// - Throws: `OutboxError` when the outbox cannot be opened.
    static func make(configuration: SignalConfiguration, metrics: ServiceMetrics, logger: Logger,
                     sharedStore: SharedStore? = nil) throws(OutboxError) -> SignalForwarder? {
        guard configuration.target != .none else { return nil }
        let target: any SignalTarget
        switch configuration.target {
        case .none:
            return nil
        case .temporal:
            target = TemporalSignalTarget(baseURL: configuration.temporalURL, namespace: configuration.temporalNamespace,
                                          apiKey: configuration.temporalAPIKey, identity: configuration.identity)
        case .webhook:
            target = WebhookSignalTarget(url: configuration.webhookURL ?? "", secret: configuration.webhookSecret ?? "")
        }
        // With the shared store the outbox file would never be read: it is not opened, so a
        // replica needs no writable outbox path.
        let store: Store
        if let sharedStore {
            store = .shared(SharedOutbox(store: sharedStore, logger: logger))
        } else {
            store = .local(try SignalOutbox(path: configuration.outboxPath, minimumFreeBytes: configuration.outboxMinimumFreeBytes,
                                            answerLimits: configuration.answerLimits) { reason, count in
                metrics.recordAnswerEvictions(reason: reason, count: count)
                logger.notice("the outbox forgot the \(count) oldest answer(s) to keyed uploads (\(reason.rawValue)): a repeat of those uploads is validated again as a new one; raise outbox.answers_per_project or outbox.answers_mib if this is frequent")
            })
        }
        let delivery = SignalDeliveryService(outbox: store.queue, target: target, policy: configuration.retry, logger: logger) { event in
            metrics.recordDelivery(event)
        }
        return SignalForwarder(store: store, delivery: delivery, signalName: configuration.name)
    }

    /// The answer kept for the upload with `key` in `projectID`, or nil when none is within the window.
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when the outbox cannot be read.
    func storedAnswer(projectID: String, key: String) async throws -> IdempotentUpload? {
        switch store {
        case .local(let outbox): try await outbox.idempotentUpload(projectID: projectID, key: key)
        case .shared(let shared): try await shared.idempotentUpload(projectID: projectID, key: key)
        }
    }

    /// Commits the signal for `photo` to the project's workflow, with the photo's fingerprint
    /// `row` in the same transaction (this replica's outbox), then wakes delivery.
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when it could not be committed; nothing is promised then.
    func promise(projectID: String, photo: PhotoData, fingerprint row: FingerprintRow?) async throws {
        switch store {
        case .local(let outbox): try await outbox.enqueue(workflowID: projectID, signalName: signalName, photo: photo, fingerprint: row)
        case .shared(let shared): try await shared.enqueue(workflowID: projectID, signalName: signalName, photo: photo)
        }
        delivery.signalEnqueued()
    }

    /// Commits the answer to a keyed upload with, when given, the signal for `photo` and the
    /// photo's fingerprint `row` (this replica's outbox), in one transaction, then wakes delivery;
    /// returns the answer kept for the key (an earlier one when another request was first: then
    /// nothing was written).
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when it could not be committed; nothing is promised then.
    func record(_ upload: IdempotentUpload, promising photo: PhotoData?, fingerprint row: FingerprintRow?) async throws -> IdempotentUpload {
        let stored: IdempotentUpload
        switch store {
        case .local(let outbox):
            stored = try await outbox.record(upload, promising: photo.map { (workflowID: upload.projectID, signalName: signalName, photo: $0) },
                                             fingerprint: row)
        case .shared(let shared):
            let promise = try photo.map { try SharedOutbox.promise(workflowID: upload.projectID, signalName: signalName, photo: $0) }
            stored = try await shared.record(upload, alongside: promise ?? { _ in })
        }
        if photo != nil, stored.photoID == upload.photoID { delivery.signalEnqueued() }
        return stored
    }

    /// In the shared outbox, the statement that commits the signal for `photo` (when given) and,
    /// for a keyed upload, its answer `upload`, to run in the transaction that remembers the photo
    /// (`DuplicateCheck.remember`'s `alongside`); nil without a shared outbox or anything to commit.
    func sharedStatement(projectID: String, promising photo: PhotoData?, answer upload: IdempotentUpload?) throws -> SharedStatement? {
        guard shared != nil else { return nil }
        guard let upload else { return try photo.map { try SharedOutbox.promise(workflowID: projectID, signalName: signalName, photo: $0) } }
        return try SharedOutbox.recording(upload, promising: photo.map { (workflowID: projectID, signalName: signalName, photo: $0) })
    }
}
