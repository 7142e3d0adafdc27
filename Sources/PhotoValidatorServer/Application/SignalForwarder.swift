import Logging
import SignalForwarding

/// The daemon's side of signal forwarding: promises signals in the outbox and wakes delivery.
public struct SignalForwarder: Sendable {
    /// The durable outbox.
    public let outbox: SignalOutbox
    /// The service that delivers from it.
    public let delivery: SignalDeliveryService
    /// The signal name.
    public let signalName: String

    /// Opens the outbox and builds the target `configuration` names, or returns nil when
    /// forwarding is off.
    ///
    /// - Throws: `OutboxError` when the outbox cannot be opened.
    static func make(configuration: SignalConfiguration, metrics: ServiceMetrics, logger: Logger) throws(OutboxError) -> SignalForwarder? {
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
        let delivery = SignalDeliveryService(outbox: outbox, target: target, policy: configuration.retry, logger: logger) { event in
            metrics.recordDelivery(event)
        }
        return SignalForwarder(outbox: outbox, delivery: delivery, signalName: configuration.name)
    }

    /// The answer kept for the upload with `key` in `projectID`, or nil when none is within the window.
    ///
    /// - Throws: `OutboxError` when the outbox cannot be read.
    func storedAnswer(projectID: String, key: String) async throws(OutboxError) -> IdempotentUpload? {
        try await outbox.idempotentUpload(projectID: projectID, key: key)
    }

    /// Commits the signal for `photo` to the project's workflow, with the photo's fingerprint
    /// `row` in the same transaction, then wakes delivery.
    ///
    /// - Throws: `OutboxError` when it could not be committed; nothing is promised then.
    func promise(projectID: String, photo: PhotoData, fingerprint row: FingerprintRow?) async throws(OutboxError) {
        try await outbox.enqueue(workflowID: projectID, signalName: signalName, photo: photo, fingerprint: row)
        delivery.signalEnqueued()
    }

    /// Commits the answer to a keyed upload with, when given, the signal for `photo` and the
    /// photo's fingerprint `row`, in one transaction, then wakes delivery; returns the answer kept
    /// for the key (an earlier one when another request was first: then nothing was written).
    ///
    /// - Throws: `OutboxError` when it could not be committed; nothing is promised then.
    func record(_ upload: IdempotentUpload, promising photo: PhotoData?, fingerprint row: FingerprintRow?) async throws(OutboxError) -> IdempotentUpload {
        let stored = try await outbox.record(upload, promising: photo.map { (workflowID: upload.projectID, signalName: signalName, photo: $0) },
                                             fingerprint: row)
        if photo != nil, stored.photoID == upload.photoID { delivery.signalEnqueued() }
        return stored
    }
}
