import Logging
import SharedStore
import SignalForwarding

/// The daemon's side of signal forwarding: promises signals in the outbox and wakes delivery.
package struct SignalForwarder: Sendable {
    /// This replica's durable outbox (unused when `shared` is set).
    package let outbox: SignalOutbox
    /// The outbox replicas share (`store.url`), which then replaces `outbox`: every replica
    /// delivers what any promised, and answers a repeat of an upload any answered.
    package let shared: SharedOutbox?
    /// The service that delivers from it.
    package let delivery: SignalDeliveryService
    /// The signal name.
    package let signalName: String

    /// The queue delivery reads and the admin view shows: the shared one when there is one.
    package var queue: any SignalQueue { shared ?? outbox }

    /// Opens the outbox (or, with `sharedStore`, uses the one replicas share) and builds the target
    /// `configuration` names, or returns nil when forwarding is off.
    ///
    /// - Throws: `OutboxError` when the outbox cannot be opened.
    static func make(configuration: SignalConfiguration, metrics: ServiceMetrics, logger: Logger,
                     sharedStore: SharedStore? = nil) throws(OutboxError) -> SignalForwarder? {
        guard configuration.target != .none else { return nil }
        let outbox = try SignalOutbox(path: configuration.outboxPath, minimumFreeBytes: configuration.outboxMinimumFreeBytes,
                                      answerLimits: configuration.answerLimits) { reason, count in
            metrics.recordAnswerEvictions(reason: reason, count: count)
            logger.notice("the outbox forgot the \(count) oldest answer(s) to keyed uploads (\(reason.rawValue)): a repeat of those uploads is validated again as a new one; raise outbox.answers_per_project or outbox.answers_mib if this is frequent")
        }
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
        let shared = sharedStore.map { SharedOutbox(store: $0, logger: logger) }
        let delivery = SignalDeliveryService(outbox: shared ?? outbox, target: target, policy: configuration.retry, logger: logger) { event in
            metrics.recordDelivery(event)
        }
        return SignalForwarder(outbox: outbox, shared: shared, delivery: delivery, signalName: configuration.name)
    }

    /// The answer kept for the upload with `key` in `projectID`, or nil when none is within the window.
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when the outbox cannot be read.
    func storedAnswer(projectID: String, key: String) async throws -> IdempotentUpload? {
        if let shared { return try await shared.idempotentUpload(projectID: projectID, key: key) }
        return try await outbox.idempotentUpload(projectID: projectID, key: key)
    }

    /// Commits the signal for `photo` to the project's workflow, with the photo's fingerprint
    /// `row` in the same transaction (this replica's outbox), then wakes delivery.
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when it could not be committed; nothing is promised then.
    func promise(projectID: String, photo: PhotoData, fingerprint row: FingerprintRow?) async throws {
        if let shared {
            try await shared.enqueue(workflowID: projectID, signalName: signalName, photo: photo)
        } else {
            try await outbox.enqueue(workflowID: projectID, signalName: signalName, photo: photo, fingerprint: row)
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
        if let shared {
            let promise = try photo.map { try SharedOutbox.promise(workflowID: upload.projectID, signalName: signalName, photo: $0) }
            stored = try await shared.record(upload, alongside: promise ?? { _ in })
        } else {
            stored = try await outbox.record(upload, promising: photo.map { (workflowID: upload.projectID, signalName: signalName, photo: $0) },
                                             fingerprint: row)
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
