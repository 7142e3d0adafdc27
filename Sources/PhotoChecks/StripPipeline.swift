import Dispatch
import Synchronization

/// Hands decoded strips to a second thread, which consumes them in order while the decoder goes
/// on with the next ones: a photo that finds an idle core builds its analysis plane during its
/// decode instead of after each strip.
///
/// Each strip is copied into one of `slots` buffers, so the decoder may reuse its own at once;
/// when every buffer waits to be consumed, the decoder waits. Use it from one producing thread:
/// `push` the strips, then `finish`, which returns once every strip has been consumed. Only after
/// `finish` may the producer read what the consumer built.
final class StripPipeline: @unchecked Sendable {
    /// Strip buffers: one being filled, one being consumed, one spare to absorb jitter.
    static let slots = 3

    /// The most memory the copies take for strips of `rowsPerStrip` rows of `width` pixels of at
    /// most four 8-bit samples each.
    static func estimatedBytes(width: Int, rowsPerStrip: Int) -> Int {
        slots * rowsPerStrip * width * 4
    }

    private struct Strip {
        var slot: Int
        var rows: Int
        var stride: Int
    }

    private let consume: (UnsafePointer<UInt8>, Int, Int) -> Void
    // Slots are handed between the threads by the semaphores, so one slot is touched by one
    // thread at a time; plain memory, not arrays, so that no access covers the other slots.
    private let buffers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: slots)
    private let capacities = UnsafeMutablePointer<Int>.allocate(capacity: slots)
    private let free = DispatchSemaphore(value: slots)
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let queue = Mutex<[Strip?]>([])
    private var nextSlot = 0
    private var ended = false

    /// Starts the consuming thread, which calls `consume(rows, rowCount, rowStride)` for each strip
    /// in the order pushed.
    init(consume: @escaping (UnsafePointer<UInt8>, Int, Int) -> Void) {
        self.consume = consume
        buffers.initialize(repeating: nil, count: Self.slots)
        capacities.initialize(repeating: 0, count: Self.slots)
        DispatchQueue.global(qos: .userInitiated).async { [self] in run() }
    }

    deinit {
        for slot in 0..<Self.slots { buffers[slot]?.deallocate() }
        buffers.deallocate()
        capacities.deallocate()
    }

    /// Copies `rowCount` rows starting at `rows`, `rowStride` bytes apart, and queues them; waits
    /// while every buffer is still queued.
    func push(rows: UnsafePointer<UInt8>, rowCount: Int, rowStride: Int) {
        precondition(!ended, "a strip pushed after finish")
        free.wait()
        let slot = nextSlot
        nextSlot = (nextSlot + 1) % Self.slots
        let bytes = rowCount * rowStride
        if capacities[slot] < bytes {
            buffers[slot]?.deallocate()
            buffers[slot] = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            capacities[slot] = bytes
        }
        buffers[slot]!.copyMemory(from: rows, byteCount: bytes)
        queue.withLock { $0.append(Strip(slot: slot, rows: rowCount, stride: rowStride)) }
        ready.signal()
    }

    /// Waits until every pushed strip has been consumed and the consuming thread has ended. Call
    /// it exactly once, also when the decode failed (the strips pushed are still consumed).
    func finish() {
        precondition(!ended, "finish called twice")
        ended = true
        queue.withLock { $0.append(nil) }
        ready.signal()
        finished.wait()
    }

    private func run() {
        while true {
            ready.wait()
            let next = queue.withLock { $0.removeFirst() }
            guard let strip = next else { break }
            consume(UnsafePointer(buffers[strip.slot]!.assumingMemoryBound(to: UInt8.self)), strip.rows, strip.stride)
            free.signal()
        }
        finished.signal()
    }
}
