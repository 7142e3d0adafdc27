import Foundation

/// An array appended to from several threads.
final class LockedArray<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Element] = []

    /// Appends `element`.
    func append(_ element: Element) {
        lock.lock()
        stored.append(element)
        lock.unlock()
    }

    /// The elements appended so far.
    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
