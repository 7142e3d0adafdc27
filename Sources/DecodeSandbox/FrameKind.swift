/// What a frame between the daemon and a decode worker carries.
package enum FrameKind: UInt8, Sendable {
    /// Daemon to worker, once: `WorkerSetup`.
    case setup = 1
    /// Daemon to worker: `ValidateRequest`, then the photo's bytes.
    case validate = 2
    /// Daemon to worker, tests only: report what the sandbox lets through (`ProbeReply`).
    case probe = 3
    /// Daemon to worker, tests only: crash with SIGSEGV.
    case crash = 4
    /// Daemon to worker, tests only: spin on the CPU past any deadline.
    case spin = 5
    /// Daemon to worker, tests only: allocate until the address-space limit stops it.
    case exhaustMemory = 6
    /// Worker to daemon, once, after start-up: `WorkerReady`.
    case ready = 10
    /// Worker to daemon: `ValidateReply`, then the preview JPEG when there is one.
    case result = 11
    /// Worker to daemon: `ProbeReply`.
    case probeResult = 12
    /// Worker to daemon: a request it could not take (`WorkerComplaint`).
    case complaint = 13
}
