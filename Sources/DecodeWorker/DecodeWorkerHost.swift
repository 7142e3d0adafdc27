import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoFormat
import PhotoValidation

/// The worker side: what `photo-validator decode-worker` runs. It reads its setup, starts libvips
/// and decodes one photo of each format (so every loader, plugin and thread it needs exists),
/// enters the sandbox, reports ready, then validates photos one at a time with the in-process
/// checks (`InProcessChecks`) until its socket closes.
package enum DecodeWorkerHost {
    /// The exit status of a worker whose start-up failed (its parent reads the reason, if any,
    /// from a complaint frame).
    static let startFailure: Int32 = 70
    /// With test requests allowed, a photo that begins with these bytes crashes its worker.
    package static let crashMarker = Array("PV-TEST-CRASH".utf8)

    /// Serves the daemon on descriptor 3; never returns.
    package static func run() -> Never {
        // Before any thread starts: one malloc arena keeps the address space predictable.
        WorkerProcess.limitArenas()
        WorkerProcess.dieWithParent()
        let channel = WorkerProcess.channel
        let setup: WorkerSetup
        let checks: InProcessChecks
        do {
            let frame = try channel.receive(timeoutMilliseconds: -1)
            guard frame.kind == .setup else { throw ChannelError.malformed("a \(frame.kind) frame before the setup") }
            setup = try frame.header(WorkerSetup.self)
            checks = try InProcessChecks(settings: setup.validationSettings)
            // Starting the decoder (`VipsRuntime`) set a 4 MiB mmap threshold, for processes that
            // decode on many threads at once; a worker has one arena and one photo at a time, so its large
            // buffers are kept and reused instead of mapped and faulted in afresh for each photo
            // (a 12 MP HEIC's two 12 MB planes: 6,000 page faults, about 18 ms of CPU).
            WorkerProcess.limitArenas()
        } catch {
            try? channel.send(.complaint, WorkerComplaint(message: "the worker could not start: \(error)"))
            exit(startFailure)
        }
        warmUp(checks)
        // The shared photo memory is mapped before the sandbox closes its descriptor.
        let shared = setup.sharedBytes > 0 ? WorkerProcess.sharedPhotoMemory(bytes: setup.sharedBytes) : nil
        let baselineKiB = WorkerProcess.addressSpaceKiB
        let limit = baselineKiB * 1024 + setup.settings.decodeMemoryBudget + setup.addressSpaceSlack
        let ready = WorkerProcess.enterSandbox(addressSpaceLimit: limit, baselineKiB: baselineKiB, cpuSeconds: setup.cpuLifetimeSeconds, user: setup.user)
        do {
            try channel.send(.ready, ready)
            while true {
                let frame: Frame
                do {
                    frame = try channel.receive(timeoutMilliseconds: -1)
                } catch .closed {
                    exit(0)
                }
                try serve(frame, checks: checks, setup: setup, ready: ready, channel: channel, shared: shared)
            }
        } catch {
            exit(0)
        }
    }

    /// The most threads one photo's decode takes, whatever the daemon offers: FFmpeg's tile
    /// decoders and their buffers are per thread.
    static let maximumThreads = 4

    private static func serve(
        _ frame: Frame, checks: InProcessChecks, setup: WorkerSetup, ready: WorkerReady, channel: FrameChannel, shared: UnsafeRawBufferPointer?
    ) throws(ChannelError) {
        if frame.kind != .validate && !setup.allowsTestRequests {
            try channel.send(.complaint, WorkerComplaint(message: "a \(frame.kind) request is for tests only"))
            return
        }
        switch frame.kind {
        case .validate:
            let request = try frame.header(ValidateRequest.self)
            let run = { (bytes: UnsafeRawBufferPointer) in
                if setup.allowsTestRequests, bytes.starts(with: Self.crashMarker) { WorkerProcess.crash() }
                return checks.measuredCheck(
                    bytes, as: request.photoType, previews: request.preview, evenIfFailed: request.previewEvenIfFailed == true,
                    threads: min(max(request.threads ?? 1, 1), Self.maximumThreads), fingerprint: request.fingerprint ?? true
                )
            }
            let (output, preview, measurements): (ValidatePhotoOutput, Result<PreviewImage, DecodeFailure>?, PhotoMeasurements?)
            if let count = request.sharedCount {
                guard let shared, count <= shared.count else {
                    try channel.send(.complaint, WorkerComplaint(message: "a photo of \(count) bytes in shared memory the worker does not have"))
                    return
                }
                (output, preview, measurements) = run(UnsafeRawBufferPointer(rebasing: shared[0..<count]))
            } else {
                (output, preview, measurements) = frame.withBody(run)
            }
            let named = Self.namingMemory(output)
            var reply = ValidateReply(output: named)
            // An answer renamed here is no longer what the measurements judge to.
            reply.measurements = named == output ? measurements : nil
            let retiring = WorkerProcess.cpuSecondsLeft < setup.cpuRetirementSeconds
            if retiring { reply.retiring = true }
            var jpeg: [UInt8] = []
            switch preview {
            case .success(let image):
                reply.previewWidth = image.width
                reply.previewHeight = image.height
                jpeg = image.jpeg
            case .failure(let failure):
                reply.previewFailure = ValidateReply.Failure(failure)
            case nil:
                break
            }
            let sent = jpeg.withUnsafeBytes { bytes in
                Result { () throws(ChannelError) in try channel.send(.result, reply.sendingFingerprintOnce(), body: bytes) }
            }
            try sent.get()
            if retiring { exit(0) }
        case .probe:
            let reply = WorkerProcess.probe(seccomp: ready.seccomp, environmentNames: ProcessInfo.processInfo.environment.keys.sorted())
            try channel.send(.probeResult, reply)
        case .crash:
            WorkerProcess.crash()
        case .spin:
            WorkerProcess.spin()
        case .exhaustMemory:
            WorkerProcess.exhaustMemory()
        default:
            try channel.send(.complaint, WorkerComplaint(message: "a \(frame.kind) frame is not a request"))
        }
    }

    /// A decoder that reports running out of memory hit the worker's address-space limit: that is
    /// `memory_limit_exceeded`, whatever the library called it.
    static func namingMemory(_ output: ValidatePhotoOutput) -> ValidatePhotoOutput {
        guard let error = output.details.error, error != DecodeFailure.Reason.memoryLimitExceeded.rawValue,
              let detail = output.details.errorDetail else { return output }
        let lowered = detail.lowercased()
        let markers = ["out of memory", "cannot allocate memory", "insufficient memory", "memory allocation failed", "failed to allocate"]
        guard markers.contains(where: lowered.contains) else { return output }
        var details = output.details
        details.error = DecodeFailure.Reason.memoryLimitExceeded.rawValue
        details.errorDetail = "the decoder ran out of memory in its worker (limited to decode_memory_mib plus a fixed overhead): \(detail)"
        return ValidatePhotoOutput(failures: output.failures, photoType: details.photoType, minimumShortSide: details.minimumShortSide, details: details)
    }

    /// Decodes a tiny photo of each format, and makes its preview, before the sandbox closes `open`.
    private static func warmUp(_ checks: InProcessChecks) {
        for (_, base64) in WarmUpPhotos.all {
            guard let bytes = Data(base64Encoded: base64) else { continue }
            bytes.withUnsafeBytes { bytes in
                // The preview path too: the one decode's kept colour, libvips' reduce and JPEG writer.
                _ = checks.validate(bytes, as: .inspiration, previews: PreviewBounds(), evenIfFailed: true, fingerprint: true)
            }
        }
    }
}
