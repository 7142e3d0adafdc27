import Dispatch

/// Blocks the threads that wait on it until opened: a stand-in for a decoder that never returns.
package final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// A closed gate.
    package init() {}

    /// Blocks the calling thread until the gate lets it through.
    package func wait() { semaphore.wait() }

    /// Lets `count` waiting (or future) threads through.
    package func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
}
