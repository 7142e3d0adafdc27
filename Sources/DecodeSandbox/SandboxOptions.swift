/// How decode workers are started and limited.
public struct SandboxOptions: Sendable {
    /// The executable started as a worker with `decode-worker` (`decode_worker_executable`).
    public var executable: String
    /// Idle workers kept for reuse: one per thread that validates.
    public var maximumIdle: Int
    /// The longest a photo may take when no pool deadline applies (`validation_timeout`).
    public var photoTimeLimit: Duration
    /// How long before its job's pool deadline a worker is killed, so the photo gets its
    /// `decode_timeout` answer before the pool gives up on the job.
    public var deadlineMargin: Duration = .milliseconds(250)
    /// Address space a worker may use beyond its start-up size and `decode_memory_mib`: libvips'
    /// thread stacks and caches, the photo's bytes and the preview.
    public var addressSpaceSlack: Int = 256 << 20
    /// Shared memory per worker that photos up to this size are passed in (sparse: only the largest
    /// photo so far is ever touched); larger photos go through the socket.
    public var sharedBytes: Int = 32 << 20
    /// The longest a worker may take to start, warm up and report ready.
    public var startLimit: Duration = .seconds(20)
    /// Whether workers take the test-only requests (crash, spin, exhaust memory, probe).
    public var allowsTestRequests = false

    /// Options for workers started from `executable`, keeping `maximumIdle` for reuse.
    public init(executable: String, maximumIdle: Int, photoTimeLimit: Duration) {
        self.executable = executable
        self.maximumIdle = max(1, maximumIdle)
        self.photoTimeLimit = photoTimeLimit
    }
}
