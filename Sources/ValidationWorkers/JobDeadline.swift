#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deadline of the job the calling worker thread runs, so work that can end itself (a decode
/// in a worker process, which is killed) does so before the pool gives up on it.
public enum JobDeadline {
    /// The deadline of the job on the calling thread, or nil outside a `ValidationWorkerPool` job.
    public static var current: ContinuousClock.Instant? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue().deadline
    }

    /// Runs `body` with `deadline` as the calling thread's job deadline.
    static func with<Result>(_ deadline: ContinuousClock.Instant, _ body: () throws -> Result) rethrows -> Result {
        let box = Unmanaged.passRetained(Box(deadline))
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, box.toOpaque())
        defer {
            pthread_setspecific(key, previous)
            box.release()
        }
        return try body()
    }

    private final class Box {
        let deadline: ContinuousClock.Instant
        init(_ deadline: ContinuousClock.Instant) { self.deadline = deadline }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
