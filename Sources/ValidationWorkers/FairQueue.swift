/// A queue per client, served in turn: each client with waiting work gets one item before any
/// client gets a second, so a client that sends many photos delays another's by at most one
/// decode per client ahead of it, not by its whole backlog.
///
/// Small and not thread-safe: the pool keeps it under its lock.
struct FairQueue<Element> {
    private var queues: [String: [Element]] = [:]
    /// Clients with waiting items, in the order they are served next.
    private var turn: [String] = []
    /// Items waiting, over every client.
    private(set) var count = 0

    /// True when nothing waits.
    var isEmpty: Bool { count == 0 }

    /// Items `client` has waiting.
    func count(of client: String) -> Int { queues[client]?.count ?? 0 }

    /// Queues `element` behind `client`'s earlier items; a client new to the queue takes the last turn.
    mutating func append(_ element: Element, client: String) {
        if queues[client] == nil {
            queues[client] = []
            turn.append(client)
        }
        queues[client]!.append(element)
        count += 1
    }

    /// The next item: the oldest of the client whose turn it is; that client then goes to the back.
    mutating func popFirst() -> Element? {
        guard !turn.isEmpty else { return nil }
        let client = turn.removeFirst()
        var items = queues[client]!
        let element = items.removeFirst()
        count -= 1
        if items.isEmpty {
            queues[client] = nil
        } else {
            queues[client] = items
            turn.append(client)
        }
        return element
    }

    /// Takes `client`'s newest item out of the queue, or nil when it has none.
    mutating func popLast(of client: String) -> Element? {
        guard var items = queues[client], let element = items.popLast() else { return nil }
        count -= 1
        if items.isEmpty {
            queues[client] = nil
            turn.removeAll { $0 == client }
        } else {
            queues[client] = items
        }
        return element
    }

    /// Takes out every item `shouldRemove` picks and returns them.
    mutating func removeAll(where shouldRemove: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        for client in turn {
            var kept: [Element] = []
            for element in queues[client]! {
                if shouldRemove(element) { removed.append(element) } else { kept.append(element) }
            }
            queues[client] = kept.isEmpty ? nil : kept
        }
        turn.removeAll { queues[$0] == nil }
        count -= removed.count
        return removed
    }

    /// Takes out every item.
    mutating func removeAllItems() -> [Element] {
        removeAll { _ in true }
    }
}
