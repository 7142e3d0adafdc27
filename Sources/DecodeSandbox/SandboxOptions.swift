import Logging

/// How decode workers are started and limited.
package struct SandboxOptions: Sendable {
    /// The executable started as a worker with `decode-worker` (`decode_worker_executable`).
    package var executable: String
    /// Idle workers kept for reuse: one per thread that validates, spare threads included; also
    /// the most replacements of stopped workers are started up to.
    package var maximumIdle: Int
    /// The longest a photo may take when no pool deadline applies (`validation_timeout`).
    package var photoTimeLimit: Duration {
        didSet { timeLimits.ceiling = photoTimeLimit }
    }
    /// What one photo may take by its declared size and format, within `photoTimeLimit`.
    package var timeLimits: PhotoTimeLimit
    /// How long before its job's pool deadline a worker is killed, so the photo gets its
    /// `decode_timeout` answer before the pool gives up on the job.
    package var deadlineMargin: Duration = .milliseconds(250)
    /// Address space a worker may use beyond its start-up size and `decode_memory_mib`: libvips'
    /// thread stacks and caches, the photo's bytes and the preview.
    package var addressSpaceSlack: Int = 256 << 20
    /// Shared memory per worker that photos up to this size are passed in (sparse: only the largest
    /// photo so far is ever touched); larger photos go through the socket.
    package var sharedBytes: Int = 32 << 20
    /// The longest a worker may take to start, warm up and report ready.
    package var startLimit: Duration = .seconds(20)
    /// Whether workers take the test-only requests (crash, spin, exhaust memory, probe).
    package var allowsTestRequests = false
    /// The user a worker becomes when the daemon runs as root (`decode_worker_user`).
    package var workerUser = WorkerUser.nobody
    /// CPU a worker may use in its whole life (RLIMIT_CPU, soft and hard alike): a worker with
    /// less than `cpuRetirement` left is retired after its photo and replaced.
    package var cpuLifetime: Duration = .seconds(1800)
    /// Whether a stopped worker's replacement is started in the background (off only to measure
    /// what that saves the next photo).
    package var startsReplacements = true
    /// Worker starts that fail in a row, with no idle worker left, after which the workers are
    /// unavailable: photos are answered `decoder_unavailable` and the daemon is not ready until a
    /// worker gets ready again (one is tried in the background every few seconds meanwhile).
    package var unavailableAfter = 3
    /// Where a replacement that cannot be started is reported (nowhere unless set).
    package var logger = Logger(label: "photo-validator.decode-workers", factory: { _ in SwiftLogNoOpLogHandler() })
    /// CPU a worker must have left to take another photo: what the longest photo may use.
    package var cpuRetirement: Duration {
        photoTimeLimit * 2 + .seconds(2)
    }

    /// Options for workers started from `executable`, keeping `maximumIdle` for reuse.
    package init(executable: String, maximumIdle: Int, photoTimeLimit: Duration) {
        self.executable = executable
        self.maximumIdle = max(1, maximumIdle)
        self.photoTimeLimit = photoTimeLimit
        self.timeLimits = PhotoTimeLimit(ceiling: photoTimeLimit)
    }
}
