import Admission
import Logging
import NIOCore
import PhotoFormat
import PhotoValidation
import Synchronization

/// Runs the content check of one photo under the configured policy: cache, circuit breaker,
/// concurrency cap, attempts with backoff, all inside one deadline; then maps the answer (or the
/// error) to the contract's failure codes.
package final class ContentClassifier: Sendable {
    /// The configuration in force.
    package let configuration: ContentCheckConfiguration
    /// The provider asked.
    package let provider: any ContentProvider
    /// The circuit breaker in front of the provider.
    package let breaker: CircuitBreaker
    /// The cap on provider calls in flight.
    package let limiter: WeightedSemaphore
    /// Answers already paid for.
    package let cache: ContentCache
    /// The size and quality of the preview JPEG the validation's decode makes.
    package let previews: PreviewBounds
    private let backoff: RetryBackoff
    private let events: @Sendable (ContentCheckEvent) -> Void
    /// The provider's last refusal of the request as configured, until it answers again.
    private let refusal = Mutex<String?>(nil)

    /// What the provider said when it last refused the request as configured (a wrong model, a
    /// revoked key, a spend limit), until a call succeeds again; nil while it answers.
    package var refusingMessage: String? { refusal.withLock { $0 } }

    /// A classifier asking `provider` under `configuration`; `events` hears what metrics need.
    package init(
        configuration: ContentCheckConfiguration,
        provider: any ContentProvider,
        previews: PreviewBounds,
        events: @escaping @Sendable (ContentCheckEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.previews = previews
        self.provider = provider
        self.events = events
        self.breaker = CircuitBreaker(failureThreshold: configuration.breakerFailureThreshold, openDuration: configuration.breakerOpenDuration) { state in
            events(.breaker(state))
        }
        self.limiter = WeightedSemaphore(capacity: configuration.maximumConcurrentCalls)
        self.cache = ContentCache(capacity: configuration.cacheEntries)
        self.backoff = RetryBackoff(initialDelay: configuration.retryInitialDelay, maximumDelay: configuration.retryMaximumDelay)
    }

    /// True when photos of `photoType` are checked.
    package func isEnabled(for photoType: PhotoType) -> Bool {
        configuration.isEnabled(for: photoType)
    }

    /// Checks one photo whose preview (or the failure to make it) and digest the worker produced.
    package func check(preview: Result<PreviewImage, DecodeFailure>, digest: String, as photoType: PhotoType) async -> ContentCheckResult {
        let clock = ContinuousClock()
        let start = clock.now
        var details = ContentCheckDetails(outcome: .classified, provider: provider.name, model: provider.model, policy: configuration.policy.rawValue)
        var attempts = 0
        let answer: Result<ProviderAnswer, ContentCheckError>
        switch preview {
        case .failure(let failure):
            answer = .failure(.previewFailed(failure.description))
        case .success(let image):
            details.previewBytes = image.jpeg.count
            details.previewWidth = image.width
            details.previewHeight = image.height
            let key = ContentCache.key(digest: digest, photoType: photoType, model: provider.model)
            if let cached = cache.answer(for: key) {
                events(.cache(hit: true))
                details.cached = true
                answer = .success(cached)
            } else {
                events(.cache(hit: false))
                let (fresh, made) = await withDeadline(start + configuration.timeout) { [self] deadline in
                    await self.ask(image, as: photoType, deadline: deadline)
                }
                answer = fresh
                attempts = made
                if case .success(let paid) = fresh {
                    cache.store(paid, for: key)
                }
            }
        }
        details.attempts = attempts
        let failure: FailureCode?
        let verdict: String
        switch answer {
        case .success(let labels):
            failure = labels.labels.failure(for: photoType)
            verdict = failure?.rawValue ?? "pass"
            details.verdict = verdict
            details.labels = labels.labels
            if !details.cached {
                details.inputTokens = labels.inputTokens
                details.outputTokens = labels.outputTokens
            }
        case .failure(let error):
            events(.failed(errorClass: error.errorClass))
            details.error = error.errorClass
            details.errorDetail = error.detail
            verdict = "error"
            switch configuration.policy {
            case .failClosed:
                details.outcome = .failedClosed
                failure = .contentCheckUnavailable
            case .failOpen, .off:
                details.outcome = .passedOnError
                failure = nil
            }
        }
        let elapsed = clock.now - start
        events(.checked(photoType: photoType, verdict: verdict, outcome: details.outcome, latency: elapsed))
        return ContentCheckResult(failure: failure, details: details, milliseconds: elapsed.milliseconds)
    }

    /// Checks one photo and merges the result into `output` (which must have passed so far).
    package func apply(to output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>, digest: String) async -> (ValidatePhotoOutput, ContentCheckResult) {
        let result = await check(preview: preview, digest: digest, as: output.details.photoType)
        return (output.addingContentCheck(failure: result.failure, content: result.details, milliseconds: result.milliseconds), result)
    }

    /// Breaker, a place among the concurrent calls, then attempts with backoff until one succeeds,
    /// one fails for good, or the next wait would pass `deadline`.
    private func ask(_ image: PreviewImage, as photoType: PhotoType, deadline: ContinuousClock.Instant) async -> (Result<ProviderAnswer, ContentCheckError>, Int) {
        guard breaker.admit() else {
            return (.failure(.circuitOpen("the provider failed \(configuration.breakerFailureThreshold) times in a row; not called for \(configuration.breakerOpenDuration)")), 0)
        }
        let wait = min(configuration.queueWait, deadline - ContinuousClock.now)
        guard let place = try? await limiter.acquire(1, waitingAtMost: wait) else {
            // The probe (if this was one) did not happen; let the next caller probe.
            breaker.cancelProbe()
            if Task.isCancelled { return (.failure(.timeout("the deadline passed while waiting for a place")), 0) }
            return (.failure(.saturated("\(configuration.maximumConcurrentCalls) provider calls in flight for \(wait)")), 0)
        }
        defer { place.release() }
        var attempt = 0
        while true {
            attempt += 1
            let callStart = ContinuousClock.now
            let remaining = deadline - callStart
            let result: Result<ProviderAnswer, ContentCheckError>
            do throws(ContentCheckError) {
                result = .success(try await provider.classify(image, as: photoType, deadline: .now() + .nanoseconds(Int64(remaining.seconds * 1e9))))
            } catch {
                result = .failure(error)
            }
            let latency = ContinuousClock.now - callStart
            switch result {
            case .success(let answer):
                breaker.recordSuccess()
                noteRefusal(nil)
                events(.providerCall(provider: provider.name, outcome: "ok", latency: latency))
                events(.tokens(input: answer.inputTokens ?? 0, output: answer.outputTokens ?? 0))
                return (result, attempt)
            case .failure(let error):
                events(.providerCall(provider: provider.name, outcome: error.errorClass, latency: latency))
                if error.isConfigurationRefusal { noteRefusal(error.detail) }
                if error.countsAgainstProvider { breaker.recordFailure() } else { breaker.recordSuccess() }
                guard error.isRetryable, attempt < configuration.maximumAttempts, !Task.isCancelled else { return (result, attempt) }
                let delay = backoff.delay(beforeRetry: attempt, retryAfter: error.retryAfter)
                guard ContinuousClock.now + delay < deadline else { return (result, attempt) }
                // A retry goes through the breaker too: it may have opened meanwhile.
                guard breaker.admit() else { return (result, attempt) }
                events(.retry(errorClass: error.errorClass))
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return (.failure(.timeout("the deadline passed while waiting to retry")), attempt)
                }
            }
        }
    }

    /// Records that the provider refuses requests (`message`) or answers again (nil), and reports
    /// each change once.
    private func noteRefusal(_ message: String?) {
        let changed = refusal.withLock { current -> Bool in
            defer { current = message }
            return (current == nil) != (message == nil)
        }
        if changed { events(.refusing(message: message)) }
    }

    /// Runs `body` and returns its result, or a timeout once `deadline` passes (cancelling it).
    private func withDeadline(
        _ deadline: ContinuousClock.Instant,
        _ body: @escaping @Sendable (ContinuousClock.Instant) async -> (Result<ProviderAnswer, ContentCheckError>, Int)
    ) async -> (Result<ProviderAnswer, ContentCheckError>, Int) {
        let timeout = configuration.timeout
        return await withTaskGroup(of: (Result<ProviderAnswer, ContentCheckError>, Int)?.self) { group in
            group.addTask { await body(deadline) }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            defer { group.cancelAll() }
            let first = await group.next() ?? nil
            return first ?? (.failure(.timeout("no answer within \(timeout)")), 0)
        }
    }
}
