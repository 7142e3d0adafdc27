import CSandbox
import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing
import ValidationThreads

/// Real worker processes, started from the built `photo-validator`, with the test requests on.
private func makeDecoding(_ configure: (inout SandboxOptions) -> Void = { _ in }) throws -> SandboxedDecoding {
    var options = SandboxOptions(executable: ProcessRunner.photoValidatorExecutable.path, maximumIdle: 2, photoTimeLimit: .seconds(20))
    options.allowsTestRequests = true
    configure(&options)
    return try SandboxedDecoding(settings: ValidationSettings(), options: options)
}

private func photo(_ path: String) throws -> Data {
    try Data(contentsOf: Fixtures.testdataFile(path))
}

@Suite("Decoding in sandboxed worker processes", .integration, .serialized, .timeLimit(.minutes(5)))
struct SandboxedDecodingTests {
    @Test("a worker answers exactly what the in-process validator answers, preview included, through shared memory or the socket",
          arguments: [32 << 20, 0])
    func sameAnswer(sharedBytes: Int) throws {
        let decoding = try makeDecoding { $0.sharedBytes = sharedBytes }
        defer { decoding.shutdown() }
        let inProcess = try PhotoValidator(settings: ValidationSettings())
        let previews = PreviewBounds()
        for path in ["photos/cups.jpg", "variants/same-room.heic", "variants/same-room.webp", "variants/rgba.png", "variants/truncated-room.jpg"] {
            let bytes = try photo(path)
            let (isolated, isolatedPreview) = bytes.withUnsafeBytes { decoding.validate($0, as: .inspiration, previews: previews) }
            let (local, localPreview) = bytes.withUnsafeBytes { inProcess.validate($0, as: .inspiration, previews: previews) }
            #expect(isolated.failures == local.failures, "\(path)")
            #expect(isolated.messages == local.messages, "\(path)")
            var (a, b) = (isolated.details, local.details)
            a.timingsMs = StageTimings()
            b.timingsMs = StageTimings()
            let sameDetails = a == b
            #expect(sameDetails, "\(path): \(a) against \(b)")
            #expect(isolatedPreview == localPreview, "\(path)")
        }
    }

    @Test("a worker's measurements are the in-process ones, fingerprints included, for a photo decoded once and one decoded twice",
          arguments: [0.0, 1e9])
    func sameMeasurements(threshold: Double) throws {
        // At 0 every photo passes its first decode; under 1e9 every JPEG is decoded again, finer.
        var settings = ValidationSettings()
        settings.roomBlurThreshold = threshold
        let decoding = try SandboxedDecoding(settings: settings, options: SandboxOptions(
            executable: ProcessRunner.photoValidatorExecutable.path, maximumIdle: 1, photoTimeLimit: .seconds(20)))
        defer { decoding.shutdown() }
        let checks = try InProcessChecks(settings: settings)
        let bytes = try photo("photos/room-living-wine.jpg")
        let isolated = bytes.withUnsafeBytes { decoding.measure($0, as: .room).measurements }
        let local = bytes.withUnsafeBytes { checks.measuredCheck($0, as: .room, previews: nil).measurements }
        #expect((local?.second != nil) == (threshold > 0))
        #expect(isolated != nil && isolated == local)
        #expect(isolated?.first?.fingerprint?.isEmpty == false)
    }

    @Test("a photo whose fingerprint no one reads gets none made, in a worker as in this process, and the same verdict")
    func fingerprintOnlyWhenAsked() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let bytes = try photo("photos/cups.jpg")
        let (with, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        let (without, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil, fingerprint: false) }
        #expect(with.details.fingerprint?.isEmpty == false)
        #expect(without.details.fingerprint == nil && without.details.timingsMs.fingerprint == 0)
        #expect(without.failures == with.failures && without.details.blurScore == with.details.blurScore)
        let measured = bytes.withUnsafeBytes { decoding.measure($0, as: .room, fingerprint: false) }
        #expect(measured.measurements?.first != nil && measured.measurements?.first?.fingerprint == nil)
    }

    @Test("a worker outlives the thread that started it: one started on a thread that then ends still decodes (issue 53's intermittent kill)")
    func workerOutlivesItsStartingThread() throws {
        // libdispatch ends a thread idle for 5 s; a pthread that returns ends the same way, at once.
        let decoding = try onThreadThatEnds { try makeDecoding() }
        defer { decoding.shutdown() }
        // The kernel sends a parent-death signal as the thread finishes exiting, just after the join.
        usleep(500_000)
        let first = try #require(decoding.idleWorkerIDs.first)
        // Its state in /proc (not reaped here: the decoding owns it); "Z" once killed.
        let stat = try String(contentsOfFile: "/proc/\(first)/stat", encoding: .utf8)
        let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init)
        #expect(state != nil && state != "Z" && state != "X", "the first worker died with the thread that started it: \(stat)")
        let bytes = try photo("photos/cups.jpg")
        let (output, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil, "\(output.details.errorDetail ?? "")")
        #expect(decoding.restartCounts.values.allSatisfy { $0 == 0 }, "\(decoding.restartCounts)")
    }

    @Test("ValidatePhotoOutput round-trips through JSON exactly, but the report's blur tile map, which is not in the answer")
    func outputRoundTrips() throws {
        let validator = try PhotoValidator(settings: ValidationSettings())
        let measured = try photo("photos/cups.jpg").withUnsafeBytes { validator.validate($0, as: .room) }
        #expect(measured.details.blurTileMap != nil)
        var details = measured.details
        details.blurTileMap = nil
        let output = ValidatePhotoOutput(failures: measured.failures, photoType: details.photoType, minimumShortSide: details.minimumShortSide, details: details)
        let decoded = try JSONDecoder().decode(ValidatePhotoOutput.self, from: JSONEncoder().encode(measured))
        // Outside #expect, as in ContractTests: its operator expansion crashed on this value.
        let roundTrips = decoded == output
        #expect(roundTrips)
    }

    @Test("a worker cannot open a file or a socket, and sees no environment variable")
    func sandboxHolds() throws {
        // This process's own variables stand for the secrets (setenv here would race getenv on
        // other test threads): PATH and HOME always, PHOTO_VALIDATOR_* under scripts/test.
        let inherited = ProcessInfo.processInfo.environment.keys.filter { $0 == "PATH" || $0 == "HOME" || $0.hasPrefix("PHOTO_VALIDATOR_") }
        #expect(!inherited.isEmpty)
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let probe = try decoding.probe(deadline: .now + .seconds(10)).get()
        // The worker starts with an empty environment; a library may set its own variable later.
        print("a worker's environment: \(probe.environmentNames)")
        for name in inherited {
            #expect(!probe.environmentNames.contains(name), "\(name) reached a worker")
        }
        #expect(probe.environmentNames.count <= 1)
        #expect(probe.openErrno != 0, "open(/etc/passwd) succeeded in a worker")
        if decoding.firstWorker.seccomp {
            #expect(probe.openErrno == EPERM)
            #expect(probe.socketErrno == EPERM)
            // Every thread of the worker is filtered (mode 2), not only the one that asked.
            let pid = try #require(decoding.idleWorkerIDs.first)
            let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
            #expect(threads.count > 1)
            for thread in threads {
                let status = try String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
                #expect(status.contains("Seccomp:\t2"), "thread \(thread) of worker \(pid) is not filtered")
            }
        } else {
            // Without seccomp (a kernel that refuses it) the other limits still hold; see README.
            print("seccomp unavailable: \(decoding.sandboxWarning ?? "")")
        }
        #expect(decoding.restartCounts.values.reduce(0, +) == 0)
    }

    @Test("a worker has no privilege: an unprivileged user when started as root, no capability, finite hard limits it cannot raise, no path-based stat or access")
    func workerIdentity() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let probe = try decoding.probe(deadline: .now + .seconds(10)).get()
        if getuid() == 0 {
            #expect(probe.uid != 0 && probe.effectiveUID != 0 && probe.gid != 0, "a worker of a root daemon kept uid \(probe.uid)")
            #expect(probe.uid == WorkerUser.nobody.uid)
        } else {
            #expect(probe.uid == getuid())
        }
        #expect(probe.effectiveCapabilities == 0 && probe.permittedCapabilities == 0)
        #expect(probe.cpuHardLimit > 0 && probe.cpuHardLimit == probe.cpuSoftLimit, "RLIMIT_CPU \(probe.cpuSoftLimit)/\(probe.cpuHardLimit)")
        #expect(probe.addressSpaceHardLimit > 0)
        #expect(probe.raiseCPULimitErrno != 0, "a worker lifted its own CPU limit")
        if decoding.firstWorker.seccomp {
            #expect(probe.statErrno == EPERM, "stat on a path answered \(probe.statErrno)")
            #expect(probe.accessErrno == EPERM, "access on a path answered \(probe.accessErrno)")
        }
        // Every live thread's identity and capability sets, bounding set included, read from
        // outside (the main thread of a Swift async program has exited: a zombie keeps its
        // credentials of the time and does nothing).
        let pid = try #require(decoding.idleWorkerIDs.first)
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var live = 0
        for thread in threads {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
            guard !status.contains("State:\tZ") else { continue }
            live += 1
            #expect(status.contains("CapEff:\t0000000000000000") && status.contains("CapPrm:\t0000000000000000"), "thread \(thread): \(status)")
            if getuid() == 0 {
                #expect(status.contains("CapBnd:\t0000000000000000") && !status.contains("Uid:\t0\t"), "thread \(thread): \(status)")
            }
        }
        #expect(live > 0)
    }

    @Test("the photo memory is sealed: only the daemon's mapping made before the seal writes; no write or writable mapping through the descriptor")
    func sharedMemorySealed() throws {
        var mapped: UnsafeMutableRawPointer?
        let fd = pv_sandbox_shared_create(1 << 20, &mapped)
        #expect(fd >= 0)
        defer {
            pv_sandbox_shared_unmap(mapped, 1 << 20)
            close(fd)
        }
        let address = try #require(mapped)
        address.storeBytes(of: 0x5A, as: UInt8.self)
        #expect(address.load(as: UInt8.self) == 0x5A, "the daemon's own mapping stays writable")
        #expect(pv_sandbox_probe_shared_write(fd) == EPERM, "a write or writable mapping got through the seal")
    }

    @Test("a photo whose least memory need is over the whole decode budget is refused at once, before any worker; the budget is shared and comes back")
    func sharedMemoryBudget() throws {
        var settings = ValidationSettings()
        settings.decodeMemoryBudget = 16 << 20
        var options = SandboxOptions(executable: ProcessRunner.photoValidatorExecutable.path, maximumIdle: 1, photoTimeLimit: .seconds(20))
        options.allowsTestRequests = true
        let decoding = try SandboxedDecoding(settings: settings, options: options)
        defer { decoding.shutdown() }
        let budget = try #require(decoding.memoryBudget)
        #expect(budget.capacity == 16 << 20)
        // A WebP whose VP8X canvas declares 3000x3000: its canvas alone is 36 MB.
        func little(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let frame = Array(Data(base64Encoded: "UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAdQsiJXpv+BiOh/AAA=")!)[12...]
        let body = Array("WEBP".utf8) + Array("VP8X".utf8) + little(10, 4) + [0, 0, 0, 0] + little(2999, 3) + little(2999, 3) + frame
        let webp = Array("RIFF".utf8) + little(body.count, 4) + body
        let (output, _) = webp.withUnsafeBytes { decoding.validate($0, as: .inspiration, previews: nil) }
        #expect(output.failures == [.invalidImage])
        #expect(output.details.error == "memory_limit_exceeded")
        #expect(output.details.errorDetail?.contains("whole decode memory budget") == true, "\(output.details.errorDetail ?? "")")
        let (good, _) = try photo("photos/small-coffee.png").withUnsafeBytes { decoding.validate($0, as: .inspiration, previews: nil) }
        #expect(good.details.error == nil)
        #expect(budget.held == 0, "every reservation came back")
    }

    @Test("a worker that crashes costs only its photo: decoder_crashed, and the next photo succeeds")
    func crashCostsOnePhoto() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let end = try #require(decoding.misbehave(.crash, deadline: .now + .seconds(10)))
        #expect(end.reason == .crashed)
        let bytes = try photo("photos/cups.jpg")
        let (output, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .inspiration, previews: nil) }
        #expect(output.details.error == nil)
        #expect(output.details.blurScore != nil)
        #expect(decoding.restartCounts["decoder_crashed"] == 1)
    }

    @Test("a killed worker's replacement is started in the background: idle before the next photo, which it serves without a worker started for it; shutdown stops it",
          arguments: [TestMisbehaviour.crash, .spin])
    func replacementReadyForNextPhoto(misbehaviour: TestMisbehaviour) throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let first = try #require(decoding.idleWorkerIDs.first)
        let end = try #require(decoding.misbehave(misbehaviour, deadline: .now + .milliseconds(misbehaviour == .spin ? 500 : 10_000)))
        #expect(end.reason == (misbehaviour == .spin ? .timedOut : .crashed), "\(end)")
        // Before the next photo arrives (no sleep: the test waits for the background start to end).
        decoding.waitForReplacements()
        let replacement = try #require(decoding.idleWorkerIDs.first, "no replacement is idle after the worker was killed")
        #expect(replacement != first && decoding.idleWorkerIDs.count == 1)
        #expect(decoding.replacementCounts == ["started": 1, "failed": 0])
        let (output, _) = try photo("photos/cups.jpg").withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil, "\(output.details.errorDetail ?? "")")
        // The replacement took the photo and no worker was started for it (one would be kept idle too).
        #expect(decoding.idleWorkerIDs == [replacement])
        decoding.shutdown()
        #expect(decoding.idleWorkerIDs.isEmpty)
        #expect(kill(replacement, 0) == -1 && errno == ESRCH, "the replacement \(replacement) still runs after shutdown")
    }

    @Test("a photo arriving while a killed worker's replacement starts awaits it: no second worker is started for it")
    func photoAwaitsReplacement() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        _ = try #require(decoding.misbehave(.crash, deadline: .now + .seconds(10)))
        // At once: the replacement is still starting (its start was decided before misbehave returned).
        let (output, _) = try photo("photos/cups.jpg").withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil, "\(output.details.errorDetail ?? "")")
        decoding.waitForReplacements()
        // The replacement served the photo and was kept; a worker started for the photo would be kept too.
        #expect(decoding.idleWorkerIDs.count == 1, "\(decoding.idleWorkerIDs)")
        #expect(decoding.replacementCounts == ["started": 1, "failed": 0])
    }

    @Test("shutdown right after a kill waits for the replacement being started and stops it: no worker is kept or left to start")
    func shutdownDuringReplacement() throws {
        let decoding = try makeDecoding()
        _ = try #require(decoding.misbehave(.crash, deadline: .now + .seconds(10)))
        // The replacement is being started now (it takes a few hundred milliseconds).
        decoding.shutdown()
        let counts = decoding.replacementCounts
        #expect(counts["started", default: 0] + counts["failed", default: 0] == 1, "shutdown returned before the replacement's start ended: \(counts)")
        #expect(decoding.idleWorkerIDs.isEmpty)
    }

    @Test("the photo right after a kill, without and with replacements started in the background (figures printed; the photo is served either way)")
    func photoAfterKillFigures() throws {
        let bytes = try photo("photos/cups.jpg")
        var lines: [String] = []
        for startsReplacements in [false, true] {
            let decoding = try makeDecoding { $0.startsReplacements = startsReplacements }
            defer { decoding.shutdown() }
            var warm: [Duration] = []
            var afterKill: [Duration] = []
            var immediate: [Duration] = []
            for _ in 0..<8 {
                let start = ContinuousClock.now
                let (output, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
                warm.append(ContinuousClock.now - start)
                #expect(output.details.error == nil)
                _ = decoding.misbehave(.crash, deadline: .now + .seconds(10))
                decoding.waitForReplacements()
                #expect(decoding.idleWorkerIDs.count == (startsReplacements ? 1 : 0))
                let killed = ContinuousClock.now
                let (next, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
                afterKill.append(ContinuousClock.now - killed)
                #expect(next.details.error == nil, "\(next.details.errorDetail ?? "")")
                // And a photo arriving at once, while the replacement starts (or, without, starting its own).
                _ = decoding.misbehave(.crash, deadline: .now + .seconds(10))
                let atOnce = ContinuousClock.now
                let (third, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
                immediate.append(ContinuousClock.now - atOnce)
                #expect(third.details.error == nil, "\(third.details.errorDetail ?? "")")
                decoding.waitForReplacements()
            }
            func figures(_ times: [Duration]) -> String {
                let ms = times.map { Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1000 }.sorted()
                return String(format: "median %.0f ms (%.0f to %.0f)", ms[ms.count / 2], ms.first!, ms.last!)
            }
            lines.append("replacements \(startsReplacements ? "on " : "off"): photo on a warm worker \(figures(warm)); photo after a kill \(figures(afterKill)); photo arriving at once after a kill \(figures(immediate))")
        }
        var load = ""
        if let loadavg = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) { load = String(loadavg.prefix(4)) }
        print("cups.jpg, 8 kills each, load \(load):\n" + lines.joined(separator: "\n"))
    }

    @Test("a worker killed from outside mid-photo is that photo's decoder_crashed")
    func killedMidPhoto() throws {
        let decoding = try makeDecoding { $0.maximumIdle = 1 }
        defer { decoding.shutdown() }
        // The idle worker is the one the next request gets.
        let pid = try #require(decoding.idleWorkerIDs.first)
        let killer = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            kill(pid, SIGKILL)
        }
        killer.start()
        let end = try #require(decoding.misbehave(.spin, deadline: .now + .seconds(10)))
        #expect(end.reason == .crashed, "\(end)")
        let (output, _) = try photo("photos/cups.jpg").withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil)
    }

    @Test("a worker that loops past its deadline is killed and the photo answered decode_timeout")
    func deadlineKills() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let start = ContinuousClock.now
        let end = try #require(decoding.misbehave(.spin, deadline: .now + .milliseconds(500)))
        #expect(end.reason == .timedOut)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(decoding.restartCounts["decode_timeout"] == 1)
    }

    @Test("the pool's deadline ends the work: the worker is killed before it, and the job answers")
    func poolDeadlineEndsWork() async throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 1, defaultTimeout: .seconds(1))
        pool.start()
        let start = ContinuousClock.now
        // The job's deadline, handed to the work, ends the worker before the pool would.
        let end = try await pool.run { deadline in decoding.misbehave(.spin, deadline: deadline) }
        #expect(end?.reason == .timedOut, "the job answered instead of the pool timing out")
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(pool.health.overdueJobs == 0)
        let validator = PhotoValidator(settings: ValidationSettings(), decoding: decoding)
        let bytes = try photo("photos/cups.jpg")
        // A fresh worker starts (and warms up) within this photo's time: give it room on a busy machine.
        let output = try await pool.run(runLimit: .seconds(30)) { deadline in bytes.withUnsafeBytes { validator.validate($0, as: .room, deadline: deadline) } }
        #expect(output.details.error == nil, "a fresh worker serves the next photo: \(output.details.errorDetail ?? "")")
        await pool.shutdown()
    }

    @Test("a worker that allocates past RLIMIT_AS dies as memory_limit_exceeded or decoder_crashed; this process survives")
    func memoryLimitHolds() throws {
        let decoding = try makeDecoding()
        defer { decoding.shutdown() }
        let end = try #require(decoding.misbehave(.exhaustMemory, deadline: .now + .seconds(20)))
        #expect(end.reason == .memory || end.reason == .crashed, "\(end)")
        print("exhausting memory ended as \(end.reason.rawValue): \(end.detail); worker baseline \(decoding.firstWorker.baselineKiB >> 10) MiB, limit \(decoding.firstWorker.addressSpaceLimit >> 20) MiB")
        let (output, _) = try photo("photos/cups.jpg").withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil)
    }

    @Test("workers that die at birth make photos decoder_unavailable, never the photo's failure, and the workers unavailable; once they can start again, a start in the background brings them back without a photo")
    func workersDyingAtBirth() throws {
        let link = try WorkerExecutableLink()
        let decoding = try makeDecoding {
            $0.executable = link.path
            $0.maximumIdle = 1
        }
        defer { decoding.shutdown() }
        // A broken install: the worker's program now exits at once; then the one worker crashes.
        try link.breakWorkers()
        let end = try #require(decoding.misbehave(.crash, deadline: .now + .seconds(10)))
        #expect(end.reason == .crashed)
        decoding.waitForReplacements()
        #expect(decoding.replacementCounts["failed"] == 1)
        let bytes = try photo("photos/cups.jpg")
        for attempt in 0..<3 {
            let start = ContinuousClock.now
            let (output, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
            print("a photo with workers dying at birth (attempt \(attempt)) answered in \(ContinuousClock.now - start): \(output.details.errorDetail ?? "")")
            #expect(output.details.error == "decoder_unavailable", "\(output.details.errorDetail ?? "")")
            #expect(output.details.errorDetail?.contains("re-export") == false)
        }
        #expect(decoding.startFailures >= 3)
        let reason = try #require(decoding.unavailableReason, "three starts failed with no idle worker: the workers are unavailable")
        #expect(reason.contains("decode worker starts failed"), "\(reason)")
        // Only the crash was a photo's end.
        #expect(decoding.restartCounts == ["decoder_crashed": 1, "decode_timeout": 0, "memory_limit_exceeded": 0])
        try link.repair()
        let back = ContinuousClock.now + .seconds(60)
        while decoding.unavailableReason != nil, ContinuousClock.now < back {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(decoding.unavailableReason == nil, "no worker got ready within 60 s of the repair")
        #expect(decoding.idleWorkerIDs.count == 1, "the start in the background keeps its worker idle for the next photo")
        let (output, _) = bytes.withUnsafeBytes { decoding.validate($0, as: .room, previews: nil) }
        #expect(output.details.error == nil, "\(output.details.errorDetail ?? "")")
    }

    @Test("a worker that never gets ready is a start failure, not a hang")
    func startFailure() throws {
        #expect(throws: SandboxError.self) { try makeDecoding { $0.executable = "/bin/false" } }
    }

    @Test("through the seam, a failed worker is the photo's invalid_image with its code and a message saying what to do")
    func seamAnswer() throws {
        let output = ValidationSettings().answer(for: DecodeFailure(.decoderCrashed, "x"), as: .room, after: .milliseconds(3))
        #expect(output.failures == [.invalidImage])
        #expect(output.details.error == "decoder_crashed")
        for reason in WorkerEnd.Reason.restartReasons {
            let message = WorkerEnd(reason: reason, detail: "test").failureMessage(limit: .seconds(1))
            #expect(message.contains("re-export"))
        }
        // A photo no worker ran is not at fault: it is told to try again, not to re-export.
        let unavailable = WorkerEnd(reason: .unavailable, detail: "test").failureMessage(limit: .seconds(1))
        #expect(unavailable.contains("try again") && !unavailable.contains("re-export"))
    }
}

/// Runs `body` on a POSIX thread of its own, waits for the thread to end, and returns the result.
private func onThreadThatEnds(_ body: @escaping () throws -> SandboxedDecoding) throws -> SandboxedDecoding {
    let box = ThreadOutcome(body)
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { context in
        let box = Unmanaged<ThreadOutcome>.fromOpaque(context!).takeUnretainedValue()
        box.result = Result { try box.body() }
        return nil
    }, Unmanaged.passUnretained(box).toOpaque())
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_join(thread, nil)
    return try box.result!.get()
}

/// What `onThreadThatEnds` runs and what came of it (written by the thread before the join).
private final class ThreadOutcome: @unchecked Sendable {
    let body: () throws -> SandboxedDecoding
    var result: Result<SandboxedDecoding, any Error>?
    init(_ body: @escaping () throws -> SandboxedDecoding) { self.body = body }
}
