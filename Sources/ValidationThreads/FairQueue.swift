/// A queue per caller, served in turn, and within a caller a queue per project, served in turn:
/// each caller with waiting work gets one item before any caller gets a second, and the caller's
/// item is the oldest of the project whose turn it is within that caller. A caller that sends many
/// photos, or spreads them over many projects, delays another caller's by at most one decode per
/// caller ahead of it, not by its backlog nor by its number of projects.
///
/// Small, pure and not thread-safe: the pool keeps it under its lock.
struct FairQueue<Element> {
    /// One caller's projects and their turns.
    private struct CallerQueue {
        /// Each project's items, oldest first, with the order they arrived in over the whole queue.
        var projects: [String: [(arrival: Int, element: Element)]] = [:]
        /// Projects with waiting items, in the order they are served next.
        var turn: [String] = []
        var count = 0
    }

    private var callers: [String: CallerQueue] = [:]
    /// Callers with waiting items, in the order they are served next.
    private var turn: [String] = []
    /// Items waiting, over every caller.
    private(set) var count = 0
    private var arrivals = 0

    /// True when nothing waits.
    var isEmpty: Bool { count == 0 }

    /// Items `caller` has waiting, over all its projects.
    func count(of caller: String) -> Int { callers[caller]?.count ?? 0 }

    /// Items waiting under `key` (one project of one caller).
    func count(of key: FairKey) -> Int { callers[key.caller]?.projects[key.project]?.count ?? 0 }

    /// Queues `element` behind `key`'s earlier items; a caller new to the queue takes the last
    /// turn among callers, a project new to its caller the last turn among that caller's projects.
    mutating func append(_ element: Element, for key: FairKey) {
        if callers[key.caller] == nil {
            callers[key.caller] = CallerQueue()
            turn.append(key.caller)
        }
        if callers[key.caller]!.projects[key.project] == nil {
            callers[key.caller]!.projects[key.project] = []
            callers[key.caller]!.turn.append(key.project)
        }
        callers[key.caller]!.projects[key.project]!.append((arrivals, element))
        arrivals += 1
        callers[key.caller]!.count += 1
        count += 1
    }

    /// The next item: the oldest of the project whose turn it is within the caller chosen; that
    /// project, then that caller, go to the back of their turns.
    ///
    /// The caller chosen is the one with the fewest jobs under way (the places `placesHeld` gives
    /// it, less its items waiting here), the earliest in turn among equals. So a caller arriving
    /// while another's jobs hold every thread takes the next thread, rather than waiting behind
    /// that caller's turn as well: threads are shared out evenly among the callers with waiting
    /// work. Without `placesHeld`, callers are served in turn.
    ///
    /// Only the jobs `selection` allows are served (a spare thread takes only some); a caller with
    /// none of them is passed over and keeps its turn. Finding a caller's first allowed project
    /// takes at most two looks, whatever its number of projects.
    mutating func popFirst(placesHeld: (String) -> Int = { _ in 0 }, selecting selection: QueueSelection = .any) -> Element? {
        guard !turn.isEmpty else { return nil }
        func underWay(_ caller: String) -> Int { max(0, placesHeld(caller) - callers[caller]!.count) }
        var chosen: (index: Int, project: Int, load: Int)?
        for index in turn.indices {
            let load = underWay(turn[index])
            if let best = chosen, best.load <= load { continue }
            guard let project = firstAllowed(of: turn[index], selection) else { continue }
            chosen = (index, project, load)
            if load == 0 { break }
        }
        guard let chosen else { return nil }
        let caller = turn.remove(at: chosen.index)
        // Taken out while changed, so its storage is not copied.
        var queue = callers.removeValue(forKey: caller)!
        let project = queue.turn.remove(at: chosen.project)
        var items = queue.projects.removeValue(forKey: project)!
        let element = items.removeFirst().element
        if !items.isEmpty {
            queue.projects[project] = items
            queue.turn.append(project)
        }
        queue.count -= 1
        count -= 1
        if queue.count > 0 {
            callers[caller] = queue
            turn.append(caller)
        }
        return element
    }

    /// True when some waiting item is one `selection` allows.
    func contains(_ selection: QueueSelection) -> Bool {
        turn.contains { firstAllowed(of: $0, selection) != nil }
    }

    /// The place of the cheapest waiting item `selection` allows whose `cost` is below `ceiling`
    /// (the earliest to arrive among equals), or nil. Items of unknown cost are never chosen.
    private func cheapest(_ selection: QueueSelection, below ceiling: Int, cost: (Element) -> Int?) -> (caller: String, project: String, index: Int)? {
        var best: (caller: String, project: String, index: Int, cost: Int, arrival: Int)?
        for caller in turn {
            for (project, items) in callers[caller]!.projects where selection.allows(FairKey(caller: caller, project: project)) {
                for (index, item) in items.enumerated() {
                    guard let itemCost = cost(item.element), itemCost < ceiling else { continue }
                    if let chosen = best, (chosen.cost, chosen.arrival) <= (itemCost, item.arrival) { continue }
                    best = (caller, project, index, itemCost, item.arrival)
                }
            }
        }
        return best.map { (caller: $0.caller, project: $0.project, index: $0.index) }
    }

    /// True when some waiting item `selection` allows costs less than `ceiling` (`popCheapest`).
    func containsCheaper(_ selection: QueueSelection, than ceiling: Int, cost: (Element) -> Int?) -> Bool {
        cheapest(selection, below: ceiling, cost: cost) != nil
    }

    /// Takes out the cheapest waiting item `selection` allows whose `cost` is below `ceiling` (the
    /// earliest among equals), or nil when there is none; turns stand (a spare thread's pick, beside them).
    ///
    /// Looks at every waiting item: the queue holds at most the pool's queue limit.
    mutating func popCheapest(_ selection: QueueSelection, below ceiling: Int, cost: (Element) -> Int?) -> Element? {
        guard let place = cheapest(selection, below: ceiling, cost: cost) else { return nil }
        var queue = callers.removeValue(forKey: place.caller)!
        var items = queue.projects.removeValue(forKey: place.project)!
        let element = items.remove(at: place.index).element
        if items.isEmpty {
            queue.turn.removeAll { $0 == place.project }
        } else {
            queue.projects[place.project] = items
        }
        queue.count -= 1
        count -= 1
        if queue.count == 0 {
            turn.removeAll { $0 == place.caller }
        } else {
            callers[place.caller] = queue
        }
        return element
    }

    /// The place in `caller`'s project turn of its first project `selection` allows, if any.
    private func firstAllowed(of caller: String, _ selection: QueueSelection) -> Int? {
        let projects = callers[caller]!.turn
        switch selection {
        case .any:
            return 0
        case .callers(let excluded):
            return excluded.contains(caller) ? nil : 0
        case .projects(let other):
            // Each project is in the turn once, so the first or the second is not `other`.
            return projects.firstIndex { FairKey(caller: caller, project: $0) != other }
        }
    }

    /// Takes `caller`'s newest item, over all its projects, out of the queue, or nil when it has none.
    mutating func popLast(of caller: String) -> Element? {
        guard let newest = callers[caller]?.projects.max(by: { $0.value.last!.arrival < $1.value.last!.arrival })?.key else { return nil }
        return popLast(of: FairKey(caller: caller, project: newest))
    }

    /// Takes `key`'s newest item out of the queue, or nil when it has none.
    mutating func popLast(of key: FairKey) -> Element? {
        guard callers[key.caller]?.projects[key.project] != nil else { return nil }
        var queue = callers.removeValue(forKey: key.caller)!
        var items = queue.projects.removeValue(forKey: key.project)!
        let element = items.removeLast().element
        if items.isEmpty {
            queue.turn.removeAll { $0 == key.project }
        } else {
            queue.projects[key.project] = items
        }
        queue.count -= 1
        count -= 1
        if queue.count == 0 {
            turn.removeAll { $0 == key.caller }
        } else {
            callers[key.caller] = queue
        }
        return element
    }

    /// Takes out every item `shouldRemove` picks and returns them; the turns of what is left stand.
    mutating func removeAll(where shouldRemove: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        for caller in turn {
            var queue = callers.removeValue(forKey: caller)!
            for project in queue.turn {
                var kept: [(arrival: Int, element: Element)] = []
                for item in queue.projects[project]! {
                    if shouldRemove(item.element) { removed.append(item.element) } else { kept.append(item) }
                }
                queue.count -= queue.projects[project]!.count - kept.count
                queue.projects[project] = kept.isEmpty ? nil : kept
            }
            let projects = queue.projects
            queue.turn.removeAll { projects[$0] == nil }
            if queue.count > 0 { callers[caller] = queue }
        }
        turn.removeAll { callers[$0] == nil }
        count -= removed.count
        return removed
    }

    /// Takes out every item.
    mutating func removeAllItems() -> [Element] {
        removeAll { _ in true }
    }
}
