import Dispatch

/// Blocks the threads that wait on it until opened: a stand-in for a decoder that never returns.
public final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// A closed gate.
    public init() {}

    /// Blocks the calling thread until the gate lets it through.
    public func wait() { semaphore.wait() }

    /// Lets `count` waiting (or future) threads through.
    public func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
}
