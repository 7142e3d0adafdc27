import Admission
import BlurMetrics
import CSandbox
import Foundation
import Logging
import PhotoFormat
import PhotoStructure
import PhotoValidation
import Synchronization

/// Decodes photos in sandboxed worker processes: the `PhotoDecodeIsolation` of `serve`, `validate`,
/// `tune` and `bench`.
///
/// Each photo is sent to an idle worker (or a new one) with its deadline: the earlier of
/// `photoTimeLimit` and the caller's deadline less `deadlineMargin`. A worker that crashes, runs
/// out of time or hits its address-space limit is killed and reaped, counted by reason, and the
/// photo is answered `invalid_image` with `decoder_crashed`, `decode_timeout` or
/// `memory_limit_exceeded`. A photo that no worker ran (none could be started or got ready within
/// its time, or the one given it ended before it read it) is the service's failure, not the
/// photo's: its answer carries `decoder_unavailable`, which the daemon answers with a 503; after
/// `unavailableAfter` starts failed in a row with no idle worker, the workers are unavailable
/// (`unavailableReason`) until a start, tried in the background every few seconds, gets ready.
/// A stopped worker's replacement is started at once in the background, so the next photo
/// normally finds it ready rather than paying the start-up (the time of a few small photos on a
/// warm worker) within its own deadline. A photo may decode on as many
/// threads as there are cores without a photo (a HEIC's tiles); with every core busy, or any
/// photo waiting for a thread behind it (the caller's `waitingPhotos`), on one.
package final class SandboxedDecoding: PhotoDecodeIsolation {
    /// How workers are started and limited.
    package let options: SandboxOptions
    /// What the first worker reported: whether seccomp is in force, its start-up size and limit.
    package let firstWorker: (seccomp: Bool, sandboxError: String?, baselineKiB: Int, addressSpaceLimit: Int)
    private let setup: WorkerSetup
    /// The settings the workers check with, which also word the answers of photos no worker judged.
    private let settings: ValidationSettings
    /// Where blur is measured: part of every photo's memory need.
    private let analysisScale: AnalysisScale
    /// The pixel limit the workers apply.
    private let pixelLimit: Int
    /// The machine-wide decode memory budget (`decode_memory_mib`): each photo's least need is
    /// reserved here before a worker takes it, so workers together stay within it.
    package let memoryBudget: WeightedSemaphore?
    /// Which worker each photo goes to and what becomes of it after (`Supervisor`): the idle
    /// workers, the restarts by reason, the photos in workers now.
    private let supervisor: Mutex<Supervisor<SandboxedWorker>>
    /// The replacements being started in the background: shutdown waits for them.
    private let replacements = DispatchGroup()
    /// Wakes a photo awaiting a replacement when a worker got ready, failed to start or came back idle.
    private let idleWorkers = IdleWorkerSignal()

    /// Starts one worker for `settings` to check that workers can run, and keeps it for the first photo.
    ///
    /// - Throws: `SandboxError.startFailed` when no worker can be started.
    package init(settings: ValidationSettings, options: SandboxOptions) throws {
        self.options = options
        var setup = WorkerSetup(settings, addressSpaceSlack: options.addressSpaceSlack, allowsTestRequests: options.allowsTestRequests)
        setup.sharedBytes = options.sharedBytes
        setup.user = options.workerUser
        setup.cpuLifetimeSeconds = Int(options.cpuLifetime.components.seconds)
        setup.cpuRetirementSeconds = Int(options.cpuRetirement.components.seconds) + 1
        self.setup = setup
        self.settings = settings
        self.analysisScale = settings.analysisScale
        self.pixelLimit = settings.pixelLimit
        self.memoryBudget = WeightedSemaphore(capacity: settings.decodeMemoryBudget)
        let worker = try SandboxedWorker(executable: options.executable, setup: setup, startLimit: options.startLimit)
        firstWorker = (worker.ready.seccomp, worker.ready.sandboxError, worker.ready.baselineKiB, worker.ready.addressSpaceLimit)
        var supervisor = Supervisor<SandboxedWorker>(options: options, cores: AvailableCores.count)
        supervisor.firstWorkerReady(worker)
        self.supervisor = Mutex(supervisor)
    }

    /// A warning to log once when a worker runs without part of its sandbox (seccomp refused by
    /// the kernel, a limit refused), else nil.
    package var sandboxWarning: String? {
        guard let error = firstWorker.sandboxError else { return nil }
        return "decode workers run without part of their sandbox (\(error)); seccomp \(firstWorker.seccomp ? "is" : "is NOT") in force"
    }

    /// Workers that ended while holding a photo, by reason (`decoder_crashed`, `decode_timeout`,
    /// `memory_limit_exceeded`), every reason listed.
    package var restartCounts: [String: Int] { supervisor.withLock { $0.restartCounts } }

    /// The process ids of the idle workers kept for the next photos (the last is used first).
    package var idleWorkerIDs: [pid_t] { supervisor.withLock { $0.idle.map(\.pid) } }

    /// Replacements started in the background that got ready (`started`), and those that could
    /// not be started (`failed`).
    package var replacementCounts: [String: Int] {
        supervisor.withLock { ["started": $0.replacementsStarted, "failed": $0.replacementFailures] }
    }

    /// Worker starts that failed: for a photo, in the background, or at birth (a worker that ended
    /// before it read its first request).
    package var startFailures: Int { supervisor.withLock { $0.startFailures } }

    /// Why no worker can be had now, while the last starts failed and none is idle; nil while
    /// workers can be had.
    package var unavailableReason: String? {
        supervisor.withLock { supervisor in
            guard supervisor.isUnavailable else { return nil }
            return "the last \(supervisor.startFailuresInARow) decode worker starts failed and no worker is idle "
                + "(last: \(supervisor.lastStartFailure ?? "unknown")); photos are answered 503 decoder_unavailable, and a start is tried again every few seconds"
        }
    }

    /// Waits until no replacement is being started in the background (tests and benchmarks).
    package func waitForReplacements() {
        replacements.wait()
    }

    /// Validates the photo in a worker; see the type's description.
    package func validate(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds?,
        evenIfFailed: Bool = false,
        fingerprint: Bool = true,
        deadline: ContinuousClock.Instant? = nil,
        waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        let answer = validateInWorker(
            bytes, as: photoType, previews: previews, evenIfFailed: evenIfFailed, fingerprint: fingerprint, deadline: deadline, waitingPhotos: waitingPhotos
        )
        return (answer.output, answer.preview)
    }

    /// Validates the photo in a worker and returns the worker's measurements too (none when the
    /// worker crashed or ran out of time or memory).
    package func measure(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, fingerprint: Bool = true, deadline: ContinuousClock.Instant? = nil, waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        let answer = validateInWorker(
            bytes, as: photoType, previews: nil, evenIfFailed: false, fingerprint: fingerprint, deadline: deadline, waitingPhotos: waitingPhotos
        )
        return (answer.output, answer.measurements)
    }

    private func validateInWorker(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds?,
        evenIfFailed: Bool,
        fingerprint: Bool,
        deadline job: ContinuousClock.Instant?,
        waitingPhotos: Int
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, measurements: PhotoMeasurements?) {
        let start = ContinuousClock.now
        let declared = DeclaredSize(bytes)
        let limit = options.timeLimits.limit(for: declared, byteCount: bytes.count)
        let deadline = supervisor.withLock { $0.deadline(from: start, limit: limit, job: job) }
        var reservation: WeightedSemaphore.Permit?
        // A picture over the pixel limit is the worker's to refuse as such, from its header.
        if let declared, declared.pixels <= pixelLimit, let memoryBudget {
            let need = DecodeMemory.least(declared, scale: analysisScale)
            do {
                reservation = try memoryBudget.acquireBlocking(need)
            } catch {
                let failure = DecodeFailure(
                    .memoryLimitExceeded,
                    "decoding and measuring this \(declared.width)x\(declared.height) \(declared.format.rawValue) needs at least \(need >> 20) MiB, "
                        + "over the whole decode memory budget of \(memoryBudget.capacity >> 20) MiB (decode_memory_mib)"
                )
                return (settings.answer(for: failure, as: photoType, after: ContinuousClock.now - start), nil, nil)
            }
        }
        defer { reservation?.release() }
        let threads = supervisor.withLock { $0.photoStarts(waitingPhotos: waitingPhotos) }
        defer { supervisor.withLock { $0.photoEnds() } }
        let exchanged = exchange(.validate, photo: bytes, deadline: deadline) { shared in
            ValidateRequest(
                photoType: photoType,
                preview: previews,
                previewEvenIfFailed: evenIfFailed ? true : nil,
                sharedCount: shared,
                threads: threads > 1 ? threads : nil,
                fingerprint: fingerprint ? nil : false
            )
        }
        switch exchanged {
        case .failure(let end):
            let failure = end.failure(limit: deadline - start)
            return (settings.answer(for: failure, as: photoType, after: ContinuousClock.now - start), nil, nil)
        case .success(let frame):
            guard frame.kind == .result, let reply = (try? frame.header(ValidateReply.self))?.withFingerprintRestored() else {
                let failure = DecodeFailure(.libraryFailure, "the decode worker answered a \(frame.kind) frame that is not a result")
                return (settings.answer(for: failure, as: photoType, after: ContinuousClock.now - start), nil, nil)
            }
            var details = reply.output.details
            // The tile map is not in the answer's JSON; the measurements sent with it carry the tiles.
            details.blurTileMap = reply.measurements?.first?.blurTileMap
            // The total is the caller's: the worker's own time plus the handing over.
            details.timingsMs.total = (ContinuousClock.now - start).milliseconds
            let output = ValidatePhotoOutput(failures: reply.output.failures, photoType: photoType, minimumShortSide: details.minimumShortSide, details: details)
            var preview: Result<PreviewImage, DecodeFailure>?
            if let failure = reply.previewFailure {
                preview = .failure(failure.decodeFailure)
            } else if let width = reply.previewWidth, let height = reply.previewHeight {
                preview = .success(PreviewImage(jpeg: frame.body, width: width, height: height))
            }
            return (output, preview, reply.measurements)
        }
    }

    /// What a worker's sandbox lets through (tests; needs `allowsTestRequests`).
    package func probe(deadline: ContinuousClock.Instant) -> Result<ProbeReply, WorkerEnd> {
        exchange(.probe, deadline: deadline) { _ in WorkerComplaint(message: "") }.flatMap { frame -> Result<ProbeReply, WorkerEnd> in
            guard let reply = try? frame.header(ProbeReply.self) else {
                return .failure(WorkerEnd(reason: .crashed, detail: "the worker answered a \(frame.kind) frame to a probe"))
            }
            return .success(reply)
        }
    }

    /// Sends a test-only misbehaviour request and returns how the worker ended (tests; needs
    /// `allowsTestRequests`); the worker is killed before `deadline`, as a photo's is before its job's.
    package func misbehave(_ misbehaviour: TestMisbehaviour, deadline: ContinuousClock.Instant) -> WorkerEnd? {
        let kind: FrameKind = switch misbehaviour {
        case .crash: .crash
        case .spin: .spin
        case .exhaustMemory: .exhaustMemory
        }
        let bounded = supervisor.withLock { $0.deadline(from: .now, job: deadline) }
        if case .failure(let end) = exchange(kind, deadline: bounded, { _ in WorkerComplaint(message: "") }) { return end }
        return nil
    }

    /// Stops every idle worker, and waits for the replacements being started, which are stopped
    /// as they get ready; a worker holding a photo now is stopped once the photo is answered.
    package func shutdown() {
        supervisor.withLock { $0.shutdown() }.forEach { $0.stop() }
        replacements.wait()
    }

    /// A worker was stopped: starts its replacement in the background when the supervisor says so.
    private func workerStopped() {
        guard options.startsReplacements else { return }
        startInBackground { $0.workerStopped(now: .now) }
    }

    /// A start failed: while no worker is idle, one is started in the background after the delay
    /// the supervisor gives, and again after each that fails, until one gets ready.
    private func scheduleRecovery() {
        guard let delay = supervisor.withLock({ $0.recoveryDelay() }) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.wholeMilliseconds))) { [self] in
            startInBackground { $0.recoveryStart() }
        }
    }

    /// Starts a worker in the background when `decide` (asked under the supervisor's lock) says so;
    /// it is kept idle once ready, and a failure is counted, logged and may schedule a recovery.
    private func startInBackground(_ decide: (inout Supervisor<SandboxedWorker>) -> Supervisor<SandboxedWorker>.Replacement) {
        // Counted before the decision, so that a shutdown deciding after it waits for this start.
        replacements.enter()
        guard case .startReplacement(let limit) = supervisor.withLock({ decide(&$0) }) else {
            replacements.leave()
            return
        }
        // Its own short thread waits for the worker to get ready; the fork itself happens on the
        // long-lived `SpawningThread` (in `SandboxedWorker.init`), which the worker's
        // parent-death signal follows, so this thread may end.
        let thread = Thread { [self] in
            defer { replacements.leave() }
            // Whatever the start's end, a photo awaiting this replacement asks the supervisor again.
            defer { idleWorkers.changed() }
            do {
                let worker = try SandboxedWorker(executable: options.executable, setup: setup, startLimit: limit)
                if supervisor.withLock({ $0.replacementStarted(worker) }) == .stop { worker.stop() }
            } catch {
                let backOff = supervisor.withLock { $0.replacementFailed(now: .now, why: "\(error)") }
                options.logger.warning(
                    "a decode worker could not be started in the background; the next photo without an idle worker starts its own",
                    metadata: ["error": "\(error)", "back_off_ms": "\(backOff.wholeMilliseconds)"]
                )
                scheduleRecovery()
            }
        }
        thread.name = "pv-worker-warmer"
        thread.start()
    }

    /// Sends a request to an idle (or new) worker and waits for its reply; `photo` goes through the
    /// worker's shared memory when it fits (`header` is told its size then) and after the header
    /// otherwise.
    private func exchange<Header: Encodable>(
        _ kind: FrameKind, photo: UnsafeRawBufferPointer? = nil, deadline: ContinuousClock.Instant, _ header: (_ sharedCount: Int?) -> Header
    ) -> Result<Frame, WorkerEnd> {
        var worker: SandboxedWorker?
        var awaiting = false
        while worker == nil {
            // Read before asking, so a worker that arrives after the answer wakes the wait below.
            let seen = idleWorkers.generation
            let checkOut = supervisor.withLock { supervisor -> Supervisor<SandboxedWorker>.CheckOut? in
                awaiting ? supervisor.awaitReplacement(deadline: deadline, now: .now) : supervisor.checkOut(deadline: deadline, now: .now)
            }
            awaiting = false
            switch checkOut {
            case nil:
                supervisor.withLock { $0.gaveUpAwaiting() }
                return .failure(WorkerEnd(reason: .unavailable, detail: "no decode worker got ready within the photo's time"))
            case .awaitReplacement:
                // The replacement's thread gets it ready within a few hundred milliseconds and
                // then signals, as does a worker checked in meanwhile; the photo's deadline ends the wait.
                awaiting = true
                idleWorkers.wait(after: seen, until: deadline)
            case .reuse(let idle) where idle.isRunning:
                worker = idle
            case .reuse:
                // Ended while idle (killed from outside): dropped, not blamed on this photo.
                supervisor.withLock { $0.idleWorkerEnded() }
                continue
            case .start(let limit):
                let attempted = ContinuousClock.now
                do {
                    worker = try SandboxedWorker(executable: options.executable, setup: setup, startLimit: limit)
                    supervisor.withLock { $0.photoWorkerStarted() }
                } catch {
                    // A start that the photo's deadline cut short while the worker was still getting
                    // ready says nothing of the workers; one that failed sooner, or within the whole
                    // start limit, does. Either way no worker ran the photo.
                    let cutShort = limit < options.startLimit && ContinuousClock.now - attempted >= limit
                    supervisor.withLock { $0.startFailed(counted: !cutShort, why: "\(error)") }
                    if !cutShort {
                        options.logger.warning("a decode worker could not be started for a photo", metadata: ["error": "\(error)"])
                        scheduleRecovery()
                    }
                    return .failure(WorkerEnd(reason: .unavailable, detail: "no decode worker could be started: \(error)"))
                }
            }
        }
        guard let worker else { preconditionFailure("the loop ends with a worker") }
        var body = UnsafeRawBufferPointer(start: nil, count: 0)
        var sharedCount: Int?
        if let photo {
            if worker.stage(photo) { sharedCount = photo.count } else { body = photo }
        }
        let result = worker.exchange(kind, header(sharedCount), body: body, deadline: deadline)
        let outcome: Supervisor<SandboxedWorker>.Outcome = switch result {
        case .success(let frame) where frame.kind == .result && (try? frame.header(WorkerRetirement.self))?.retiring == true: .retiring
        case .success: .answered
        case .failure(let end) where end.reason == .unavailable: .endedBeforeRequest
        case .failure(let end): .ended(end.reason)
        }
        if supervisor.withLock({ $0.checkIn(worker, after: outcome) }) == .stop {
            worker.stop()
            workerStopped()
            if outcome == .endedBeforeRequest { scheduleRecovery() }
        } else {
            idleWorkers.changed()
        }
        return result
    }
}
