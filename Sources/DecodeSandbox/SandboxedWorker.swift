import CSandbox
import Foundation
import PhotoValidation

/// One decode worker process, seen from the daemon: started from the daemon's own executable with
/// `decode-worker`, an empty environment and one end of a socket pair as its only descriptor.
///
/// A worker serves one request at a time and belongs to one thread at a time (`SandboxedDecoding`
/// checks it out); one that dies or misses a deadline is killed, reaped and never used again.
package final class SandboxedWorker: @unchecked Sendable {
    /// The worker's process id.
    package let pid: pid_t
    /// What the worker reported once sandboxed.
    let ready: WorkerReady
    private let channel: FrameChannel
    /// The daemon's read-write view of the photo memory shared with the worker, if any.
    private let shared: UnsafeMutableRawBufferPointer?
    /// False once the worker has died or been killed.
    package private(set) var isAlive = true

    /// Starts a worker and waits (at most `startLimit`) for it to report ready.
    ///
    /// - Throws: `SandboxError.startFailed` when it cannot be spawned or does not get ready.
    init(executable: String, setup: WorkerSetup, startLimit: Duration) throws(SandboxError) {
        var fds: [Int32] = [-1, -1]
        let paired = fds.withUnsafeMutableBufferPointer { pv_sandbox_socketpair($0.baseAddress) }
        guard paired == 0 else { throw .startFailed("socketpair failed: \(String(cString: strerror(paired)))") }
        let pid: pid_t
        // A root daemon's worker drops to the worker user before its first thread (CSandbox's
        // constructor reads this); the order of these arguments is what it looks for.
        let arguments = [executable, "decode-worker"]
            + (getuid() == 0 || geteuid() == 0 ? ["--worker-user", "\(setup.user.uid):\(setup.user.gid)"] : [])
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var setup = setup
        var mapped: UnsafeMutableRawPointer?
        let memory = setup.sharedBytes > 0 ? pv_sandbox_shared_create(setup.sharedBytes, &mapped) : -1
        if memory < 0 { setup.sharedBytes = 0 }
        // From the spawning thread: the worker dies with the thread that starts it (see there).
        let channelEnd = fds[1]
        let started = SpawningThread.shared.run { [argv] in
            var argv = argv
            var child: pid_t = 0
            let status = pv_sandbox_spawn(executable, &argv, channelEnd, memory, &child)
            return (status, child)
        }
        let spawned = started.0
        pid = started.1
        close(fds[1])
        if memory >= 0 { close(memory) }
        let shared = memory >= 0 ? mapped.map { UnsafeMutableRawBufferPointer(start: $0, count: setup.sharedBytes) } : nil
        guard spawned == 0 else {
            close(fds[0])
            if let shared { pv_sandbox_shared_unmap(shared.baseAddress, shared.count) }
            throw .startFailed("\(executable) could not be started: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.shared = shared
        self.channel = FrameChannel(descriptor: fds[0])
        do {
            try channel.send(.setup, setup)
            let frame = try channel.receive(timeoutMilliseconds: Int32(clamping: startLimit.wholeMilliseconds))
            switch frame.kind {
            case .ready:
                ready = try frame.header(WorkerReady.self)
            case .complaint:
                throw ChannelError.malformed("a complaint: \((try? frame.header(WorkerComplaint.self).message) ?? "unreadable")")
            default:
                throw ChannelError.malformed("a \(frame.kind) frame instead of ready")
            }
        } catch {
            pv_sandbox_kill(pid)
            _ = pv_sandbox_wait(pid, 1)
            close(fds[0])
            if let shared { pv_sandbox_shared_unmap(shared.baseAddress, shared.count) }
            if let error = error as? ChannelError, case .timedOut = error {
                throw .startFailed("the decode worker \(executable) did not get ready within \(startLimit)")
            }
            throw .startFailed("the decode worker \(executable) ended or failed before it got ready: \(error)")
        }
    }

    deinit {
        stop()
        close(channel.descriptor)
        if let shared { pv_sandbox_shared_unmap(shared.baseAddress, shared.count) }
    }

    /// Copies `photo` into the shared memory when it fits (the worker reads it there, so the
    /// socket carries only the request); false when it does not.
    func stage(_ photo: UnsafeRawBufferPointer) -> Bool {
        guard let shared, photo.count <= shared.count, let source = photo.baseAddress, let target = shared.baseAddress else { return false }
        target.copyMemory(from: source, byteCount: photo.count)
        return true
    }

    /// Whether the process is still running (one that ended while idle is reaped here).
    var isRunning: Bool {
        guard isAlive else { return false }
        guard pv_sandbox_wait(pid, 0) == -2 else {
            isAlive = false
            return false
        }
        return true
    }

    /// Kills the worker (if alive) and reaps it.
    package func stop() {
        guard isAlive else { return }
        isAlive = false
        pv_sandbox_kill(pid)
        _ = pv_sandbox_wait(pid, 1)
    }

    /// Sends `kind` with `header` and `body` and waits until `deadline` for the reply; a worker that
    /// dies, sends nonsense or misses the deadline is killed and the end is classified. A worker
    /// whose socket was closed before the request was sent never read it: `unavailable`, not the
    /// request's end.
    func exchange<Header: Encodable>(
        _ kind: FrameKind, _ header: Header, body: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), deadline: ContinuousClock.Instant
    ) -> Result<Frame, WorkerEnd> {
        guard isAlive else { return .failure(WorkerEnd(reason: .unavailable, detail: "the worker had already ended")) }
        do {
            do {
                try channel.send(kind, header, body: body)
            } catch .closed {
                let end = end(after: .closed(prefix: []))
                return .failure(WorkerEnd(reason: .unavailable, detail: "the worker ended before it read the request: \(end.detail)"))
            }
            let left = max(1, (deadline - ContinuousClock.now).wholeMilliseconds)
            let frame = try channel.receive(timeoutMilliseconds: Int32(clamping: left))
            return .success(frame)
        } catch {
            return .failure(end(after: error))
        }
    }

    /// Kills and reaps the worker after `error` and says how it ended.
    private func end(after error: ChannelError) -> WorkerEnd {
        isAlive = false
        if case .timedOut = error {
            pv_sandbox_kill(pid)
            _ = pv_sandbox_wait(pid, 1)
            return WorkerEnd(reason: .timedOut, detail: "killed at its deadline")
        }
        var reportedMemory = false
        if case .closed(let prefix) = error {
            reportedMemory = prefix == [UInt8(PV_SANDBOX_OOM_BYTE)]
        }
        // The worker is dying or dead; a worker that only sent nonsense is killed here.
        var status = pv_sandbox_wait(pid, 0)
        var killedHere = false
        if status == -2 {
            let grace = ContinuousClock.now + .milliseconds(200)
            while status == -2, ContinuousClock.now < grace {
                usleep(2000)
                status = pv_sandbox_wait(pid, 0)
            }
            if status == -2 {
                pv_sandbox_kill(pid)
                status = pv_sandbox_wait(pid, 1)
                killedHere = true
            }
        }
        let signal = status >= 0 ? pv_sandbox_term_signal(status) : 0
        if signal == SIGXCPU {
            return WorkerEnd(reason: .timedOut, detail: "it used up its CPU allowance (SIGXCPU)")
        }
        if reportedMemory {
            return WorkerEnd(reason: .memory, detail: "it died of signal \(signal) at its address-space limit")
        }
        if killedHere {
            // Its own SIGKILL says nothing: what the channel said does.
            return WorkerEnd(reason: .crashed, detail: "it was still running after its channel ended (\(error)), and was killed")
        }
        if signal != 0 {
            return WorkerEnd(reason: .crashed, detail: "it died of signal \(signal) (\(String(cString: strsignal(signal))))")
        }
        let code = status >= 0 ? pv_sandbox_exit_code(status) : -1
        return WorkerEnd(reason: .crashed, detail: "it ended (exit status \(code)) after \(error)")
    }
}
