import Admission
import ContentCheck
import Hummingbird
import Logging
import LumaAnalysis
import PhotoStructure
import PhotoValidation
import SharedStore
import SignalForwarding
import Synchronization
import ValidationThreads

/// Validates request bodies on the worker pool, with the daemon's limits, timeouts and metrics.
package struct PhotoValidationService: Sendable {
    /// The checks.
    package let validator: PhotoValidator
    /// The long-lived threads photos are decoded on.
    package let pool: ValidationThreadPool
    /// Where outcomes are counted.
    package let metrics: ServiceMetrics
    /// The limits and timeouts in force.
    package let configuration: ServiceConfiguration
    /// The content check, when a classifier is configured.
    package var content: ContentClassifier?
    /// The duplicate check of a project's photos, unless turned off (`duplicates.check`).
    package var duplicates: DuplicateCheck?

    /// Bytes of upload bodies in memory, shared fairly among callers.
    package let uploads: FairMemoryGate

    /// Reserves room for the body of `request` in the upload budget, under its caller (the
    /// identity fair admission uses, `caller(of:context:)`), waiting, body unread, while there is
    /// none for it: a caller within its share is let in before one over it, and a caller alone
    /// leaves a quarter of the budget for others (`FairMemoryGate`). Then asks a client waiting on
    /// `Expect: 100-continue` for the body, receives it and runs `operation` with it; the room is
    /// given back when `operation` returns, or at once when the body is refused.
    ///
    /// A declared `Content-Length` over the body limit is refused before any byte is read.
    ///
    /// - Throws: `APIError` 413, 408 or 503, or what `operation` throws.
    func receiving<Result>(_ request: Request, context: ValidationRequestContext, _ operation: (ByteBuffer) async throws -> Result) async throws -> Result {
        let limit = configuration.bodyLimit
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit {
            throw APIError.fileTooLarge(limit: limit)
        }
        let reservation: FairMemoryGate.Permit
        do {
            reservation = try await uploads.acquire(min(declared ?? limit, uploads.capacity), for: caller(of: request, context: context),
                                                    waitingAtMost: configuration.admissionWait)
        } catch {
            switch error {
            case .cancelled:
                metrics.recordRejection(reason: "shutting_down")
                throw APIError.shuttingDown(retryAfter: configuration.retryAfterSeconds)
            case .tooLarge, .timedOut:
                metrics.recordRejection(reason: "overloaded")
                throw APIError.overloaded(
                    retryAfter: configuration.retryAfterSeconds,
                    detail: "upload memory full: \(uploads.held) of \(uploads.capacity) bytes held, \(uploads.waiting) waiting, for \(configuration.admissionWait)"
                )
            }
        }
        defer { reservation.release() }
        context.wantBody()
        let body = try await receiveBody(of: request, limit: limit, declared: declared)
        return try await operation(body)
    }

    /// Receives the body of `request`, refusing it once it passes `limit`, the request timeout,
    /// or, after the grace period, arrives too slowly (`watchBodyRate`).
    private func receiveBody(of request: Request, limit: Int, declared: Int?) async throws(APIError) -> ByteBuffer {
        let timeout = configuration.requestTimeout
        let received = ReceivedBytes()
        let start = ContinuousClock.now
        do {
            // The read is cancelled, not abandoned, when the watch wins: the request body has one
            // reader, and Hummingbird reads what is left of it after the handler returns.
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask {
                    // Sized from the declared length once, not regrown (and copied) chunk by chunk.
                    var body = ByteBufferAllocator().buffer(capacity: min(declared ?? 0, limit))
                    for try await chunk in request.body {
                        guard body.readableBytes + chunk.readableBytes <= limit else { throw APIError.fileTooLarge(limit: limit) }
                        var chunk = chunk
                        body.writeBuffer(&chunk)
                        received.count.store(body.readableBytes, ordering: .relaxed)
                    }
                    return body
                }
                group.addTask {
                    try await watchBodyRate(received: received, declared: declared, start: start, timeout: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let body = try await group.next() ?? nil else { throw APIError.requestTimeout(limit: timeout) }
                return body
            }
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw .fileTooLarge(limit: limit)
        } catch {
            throw .validationError("the request body could not be read: \(error)")
        }
    }

    /// Returns when the body has taken longer than `timeout`; throws 408 `body_too_slow` as soon
    /// as, after the grace period, it is too slow to be worth the memory it holds: a declared body
    /// when, at its average rate so far, the rest would not arrive within `timeout` (it would be
    /// 408 at the timeout anyway; a small photo on a slow link still finishes and is accepted), a
    /// body of unknown length (which holds the whole body limit) when its average is under the
    /// minimum rate. A minimum rate of 0 turns both off.
    private func watchBodyRate(received: ReceivedBytes, declared: Int?, start: ContinuousClock.Instant, timeout: Duration) async throws {
        let rate = configuration.minimumBodyRate, grace = configuration.bodyRateGrace
        while true {
            let elapsed = ContinuousClock.now - start
            if elapsed >= timeout { return }
            if rate > 0, elapsed >= grace {
                let bytes = received.count.load(ordering: .relaxed)
                if Self.tooSlow(received: bytes, declared: declared, after: elapsed, minimumRate: rate, timeout: timeout) {
                    metrics.recordRejection(reason: "slow_body")
                    throw APIError.bodyTooSlow(received: bytes, declared: declared, after: elapsed, minimumRate: rate, timeout: timeout)
                }
            }
            // Looked at 4 times a second, so a refused body's memory comes back within a quarter second of the rule.
            try await Task.sleep(for: min(.milliseconds(250), timeout - elapsed))
        }
    }

    /// True when a body of which `received` bytes (of `declared`, when known) arrived in `elapsed`
    /// is too slow (`watchBodyRate`).
    static func tooSlow(received: Int, declared: Int?, after elapsed: Duration, minimumRate: Int, timeout: Duration) -> Bool {
        let average = Double(received) / max(elapsed.seconds, 0.001)
        guard let declared else { return average < Double(minimumRate) }
        guard received < declared else { return false }
        return average <= 0 || Double(declared - received) / average > (timeout - elapsed).seconds
    }

    /// Takes a worker-pool slot (a thread or a place in its queue) for `client` (a caller and a
    /// project) and runs `operation` with it; callers' photos are served in turn, and each caller's
    /// projects in turn within its turn. The body is complete by now: a slow upload never holds a slot.
    ///
    /// `ticket` is the place promised to the request before its body was read (`FairAdmissionMiddleware`).
    /// `cost`, the photo's decode cost from its header, lets the spare thread take the cheapest
    /// waiting photo (`ValidationThreadPool.StateMachine.FreeThreadChoice`).
    ///
    /// - Throws: `APIError` 503 when the pool is full or stopping, or what `operation` throws.
    func admitted<Result>(record: RequestRecord, ticket: ValidationThreadPool.Ticket? = nil, client: FairKey, cost: DecodeCost? = nil,
                          _ operation: (ValidationThreadPool.Slot) async throws -> Result) async throws -> Result {
        do {
            return try await pool.withSlot(for: client, ticket: ticket, cost: cost?.milliseconds, operation)
        } catch let error as ThreadPoolError {
            switch error {
            case .overloaded:
                metrics.recordRejection(reason: "overloaded")
                throw APIError.overloaded(retryAfter: configuration.retryAfterSeconds, detail: error.description)
            case .notRunning:
                metrics.recordRejection(reason: "shutting_down")
                throw APIError.shuttingDown(retryAfter: configuration.retryAfterSeconds)
            case .timedOut:
                metrics.recordRejection(reason: "timeout")
                throw APIError.validationTimeout(retryAfter: configuration.retryAfterSeconds, limit: configuration.validationTimeout)
            }
        }
    }

    /// Validates `body` as a photo of `photoType` in `slot`, recording the outcome in `record` and
    /// the metrics; `digest` is the file's SHA-256 when the caller has taken it already. With
    /// `project`, a photo the project already accepted (other than `project.photoID`) is
    /// `duplicate_photo`, and the content check is not asked; the comparisons run in the worker
    /// with the decode, under the same deadline. The fingerprint is made only when the duplicate
    /// check or the caller (`answersFingerprint`) reads it; the answer carries it only for the caller.
    func validate(_ body: ByteBuffer, as photoType: PhotoType, in slot: ValidationThreadPool.Slot, record: RequestRecord,
                  digest: String? = nil, project: (id: String, photoID: String?)? = nil,
                  answersFingerprint: Bool = false) async throws(APIError) -> CheckedPhoto {
        let validator = validator
        let content = content
        // The deadline holds while the job runs: past it the request is answered and a job stuck
        // in a decoder keeps only its thread (the pool starts a stand-in and reports it).
        let deadline = ContinuousClock.now + configuration.validationTimeout
        let duplicates = project == nil ? nil : duplicates
        let candidates: (photos: [PhotoFingerprintStore.Photo], generation: UInt64)?
        do {
            candidates = if let duplicates, let project { try await duplicates.candidates(in: project.id, besides: project.photoID) } else { nil }
        } catch {
            // The shared store is down: a photo not compared with the project's is not answered.
            throw storeUnavailable(error, record: record)
        }
        let fingerprinting = answersFingerprint || candidates != nil
        // The worker decodes, measures and makes the preview; the provider is called below, from
        // this task, so no worker thread waits on the network.
        let pool = pool
        let (prepared, fingerprint) = try await run(in: slot, until: deadline, record: record) {
            body.withUnsafeReadableBytes { bytes in
                // While photos wait for a thread, this one decodes on one core: a core it took would be taken from them.
                let prepared = PreparedPhoto(validator.validate(bytes, as: photoType, previews: content?.previewBounds(for: photoType),
                                                                fingerprint: fingerprinting, deadline: deadline, waitingPhotos: pool.queued),
                                             of: bytes, knownDigest: digest)
                return (prepared, candidates == nil ? nil : prepared.output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)))
            }
        }
        try refuseUnchecked(prepared.output, record: record)
        var duplicateOf: String?
        if let duplicates, let candidates, let fingerprint {
            duplicateOf = try await earliestMatch(of: fingerprint, among: candidates.photos, by: duplicates, in: slot, until: deadline, record: record)
        }
        var output = prepared.output
        var contentLog: String?
        if let duplicateOf {
            output = output.adding(.duplicatePhoto) { $0.duplicateOf = duplicateOf }
        } else if let content {
            let (checked, contentResult) = await content.finish(prepared)
            output = checked
            contentLog = contentResult.map { "\($0.logValue) \(Int($0.milliseconds.rounded()))ms" }
        }
        if !answersFingerprint { output = output.withoutFingerprint }
        metrics.recordValidation(output)
        let timings = output.details.timingsMs
        record.validation = RequestRecord.Validation(
            photoType: photoType.rawValue,
            passed: output.passed,
            failures: output.failures.map(\.rawValue),
            timingsMs: Dictionary(timings.stages.map { ($0.name, $0.milliseconds) }, uniquingKeysWith: { $1 }),
            content: contentLog
        )
        return CheckedPhoto(output: output, fingerprint: fingerprint, generation: candidates?.generation ?? 0, deadline: deadline)
    }

    /// The id of the earliest of `photos` that is the photo `fingerprint` describes, or nil,
    /// compared in `slot` under `deadline` in jobs of bounded cost (`DuplicateCheck.batches`): each
    /// job takes its turn in the fair queue, so a project of large fingerprints delays another
    /// client's photo by one such job at most, not by all its comparisons.
    private func earliestMatch(of fingerprint: PhotoFingerprint, among photos: [PhotoFingerprintStore.Photo], by duplicates: DuplicateCheck,
                               in slot: ValidationThreadPool.Slot, until deadline: ContinuousClock.Instant, record: RequestRecord) async throws(APIError) -> String? {
        guard !photos.isEmpty else { return nil }
        // The screen is made once, in the first job, and screens every batch.
        var screen: DuplicateScreen?
        for batch in DuplicateCheck.batches(of: photos) {
            let (match, made) = try await run(in: slot, until: deadline, record: record) { [screen] in
                let made = screen ?? duplicates.screen(of: fingerprint)
                return (duplicates.earliestMatch(of: made, among: batch), made)
            }
            if let match { return match }
            screen = made
        }
        return nil
    }

    /// Remembers `photo`, when it passed, as `photoID` of `projectID` for the duplicate check:
    /// comparing it first, in `slot` and under its deadline, with any photo the project accepted
    /// since it was validated. Returns the answer (`duplicate_photo` when such a photo is the same)
    /// and the row to write with its signal (nil in memory only, or when nothing was kept).
    ///
    /// In the shared memory (`store.url`), `alongside` (the photo's signal and answer) commits with
    /// the photo, run exactly when it is remembered there.
    ///
    /// - Throws: `APIError` 409 when the project remembers another photo as `photoID`, 503
    ///   `store_unavailable` when the shared store fails (nothing is remembered then), the pool's
    ///   503s, or `SharedOutbox.EarlierAnswer` from `alongside` (nothing committed).
    func remember(_ photo: CheckedPhoto, photoID: String, in projectID: String, slot: ValidationThreadPool.Slot,
                  record: RequestRecord, alongside: SharedStatement? = nil) async throws -> (output: ValidatePhotoOutput, row: FingerprintRow?) {
        guard photo.output.passed, let duplicates, let fingerprint = photo.fingerprint else {
            return (photo.output, nil)
        }
        let remembered: PhotoFingerprintStore.Remembered
        let service = self
        do {
            remembered = try await duplicates.remember(fingerprint, photoID: photoID, in: projectID, comparedUpTo: photo.generation,
                                                       alongside: alongside) { arrived in
                try await service.earliestMatch(of: fingerprint, among: arrived, by: duplicates, in: slot, until: photo.deadline, record: record)
            }
        } catch let error as APIError {
            throw error
        } catch let error as SharedOutbox.EarlierAnswer {
            throw error
        } catch let error as SharedStoreError {
            throw storeUnavailable(error, record: record)
        } catch {
            record.errorCause = String(describing: error)
            throw APIError.internalError(requestID: record.requestID)
        }
        switch remembered {
        case .remembered(let row):
            return (photo.output, row)
        case .alreadyRemembered:
            return (photo.output, nil)
        case .duplicate(let earlier):
            return (photo.output.adding(.duplicatePhoto) { $0.duplicateOf = earlier }, nil)
        case .conflict:
            throw APIError.photoIDConflict(photoID)
        }
    }

    /// The 503 for a shared store that failed with `error`, its cause in `record` and the metrics.
    func storeUnavailable(_ error: any Error, record: RequestRecord) -> APIError {
        record.errorCause = String(describing: error)
        metrics.recordRejection(reason: "store_unavailable")
        return .storeUnavailable(retryAfter: configuration.retryAfterSeconds)
    }

    /// Runs `body` on a worker thread in `slot` until `deadline`, answering the pool's refusals
    /// and time-outs as the API's 503s.
    private func run<Result: Sendable>(in slot: ValidationThreadPool.Slot, until deadline: ContinuousClock.Instant, record: RequestRecord,
                                       _ body: @escaping @Sendable () throws -> Result) async throws(APIError) -> Result {
        do {
            return try await slot.run(deadline: deadline, body)
        } catch ThreadPoolError.notRunning {
            metrics.recordRejection(reason: "shutting_down")
            throw .shuttingDown(retryAfter: configuration.retryAfterSeconds)
        } catch let error as ThreadPoolError where error.isOverloaded {
            // Waiting, it gave its place to a client holding fewer (the pool was full).
            metrics.recordRejection(reason: "overloaded")
            throw .overloaded(retryAfter: configuration.retryAfterSeconds, detail: error.description)
        } catch ThreadPoolError.timedOut {
            metrics.recordRejection(reason: "timeout")
            record.errorCause = "validation_timeout: the decode was still running at the deadline; its worker stays busy until the decoder returns"
            throw .validationTimeout(retryAfter: configuration.retryAfterSeconds, limit: configuration.validationTimeout)
        } catch {
            record.errorCause = String(describing: error)
            throw .internalError(requestID: record.requestID)
        }
    }
}

/// The bytes of a body received so far, shared by its reader and its rate watch.
private final class ReceivedBytes: Sendable {
    let count = Atomic<Int>(0)
}
