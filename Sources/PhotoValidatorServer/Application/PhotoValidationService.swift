import ContentCheck
import Hummingbird
import Logging
import PhotoValidation

/// Validates request bodies on the worker pool, with the daemon's limits, timeouts and metrics.
public struct PhotoValidationService: Sendable {
    /// The checks.
    public let validator: PhotoValidator
    /// The long-lived threads photos are decoded on.
    public let pool: ValidationWorkerPool
    /// Where outcomes are counted.
    public let metrics: ServiceMetrics
    /// The limits and timeouts in force.
    public let configuration: ServiceConfiguration
    /// The content check, when a classifier is configured.
    public var content: ContentClassifier?

    /// Receives the body of `request`, refusing it once it passes the body limit or the timeout.
    ///
    /// A declared `Content-Length` over the limit is refused before any byte is read.
    func receiveBody(of request: Request) async throws(APIError) -> ByteBuffer {
        let limit = configuration.bodyLimit
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw .fileTooLarge(limit: limit)
        }
        let timeout = configuration.requestTimeout
        do {
            // The read is cancelled, not abandoned, when the timer wins: the request body has one
            // reader, and Hummingbird reads what is left of it after the handler returns.
            let body = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await request.body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let body else { throw APIError.requestTimeout(limit: timeout) }
            return body
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw .fileTooLarge(limit: limit)
        } catch {
            throw .validationError("the request body could not be read: \(error)")
        }
    }

    /// Takes a worker-pool slot for the whole request (reading the upload included), so uploads
    /// held in memory are bounded by the pool's capacity, then runs `operation` with it.
    ///
    /// - Throws: `APIError` 503 when the pool is full or stopping, or what `operation` throws.
    func admitted<Result>(record: RequestRecord, _ operation: (ValidationWorkerPool.Slot) async throws -> Result) async throws -> Result {
        do {
            return try await pool.withSlot(operation)
        } catch let error as WorkerPoolError {
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
    /// the metrics.
    func validate(_ body: ByteBuffer, as photoType: PhotoType, in slot: ValidationWorkerPool.Slot, record: RequestRecord) async throws(APIError) -> ValidatePhotoOutput {
        let validator = validator
        let content = content
        // The deadline holds while the job runs: past it the request is answered and a job stuck
        // in a decoder keeps only its thread (the pool starts a stand-in and reports it).
        let deadline = ContinuousClock.now + configuration.validationTimeout
        let prepared: PreparedPhoto
        do {
            // The worker decodes, measures and makes the preview; the provider is called below,
            // from this task, so no worker thread waits on the network.
            prepared = try await slot.run(deadline: deadline) {
                body.withUnsafeReadableBytes { bytes in
                    content?.prepare(bytes, as: photoType, validator: validator)
                        ?? PreparedPhoto(output: validator.validate(bytes, as: photoType), preview: nil, digest: "")
                }
            }
        } catch WorkerPoolError.notRunning {
            metrics.recordRejection(reason: "shutting_down")
            throw .shuttingDown(retryAfter: configuration.retryAfterSeconds)
        } catch WorkerPoolError.timedOut {
            metrics.recordRejection(reason: "timeout")
            record.note = "validation_timeout: the decode was still running at the deadline; its worker stays busy until the decoder returns"
            throw .validationTimeout(retryAfter: configuration.retryAfterSeconds, limit: configuration.validationTimeout)
        } catch {
            record.note = String(describing: error)
            throw .internalError(requestID: record.requestID)
        }
        var output = prepared.output
        var contentLog: String?
        if let content {
            let (checked, contentResult) = await content.finish(prepared)
            output = checked
            contentLog = contentResult.map { "\($0.logValue) \(Int($0.milliseconds.rounded()))ms" }
        }
        metrics.recordValidation(output)
        let timings = output.details.timingsMs
        record.validation = RequestRecord.Validation(
            photoType: photoType.rawValue,
            passed: output.passed,
            failures: output.failures.map(\.rawValue),
            timingsMs: ["header": timings.header, "decode": timings.decode, "luma": timings.luma, "blur": timings.blur, "total": timings.total]
                .merging([("content_preview", timings.contentPreview), ("content", timings.content)].compactMap { key, value in value.map { (key, $0) } }) { $1 },
            content: contentLog
        )
        return output
    }
}
