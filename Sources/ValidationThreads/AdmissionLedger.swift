/// The places held in the worker pool (jobs admitted and not yet finished), per caller and per
/// project within a caller, and who gives way to a new job when the pool is full.
///
/// Pure: the pool keeps it under its lock beside its `FairQueue`.
struct AdmissionLedger {
    /// Who gives up a waiting job to a job that would otherwise be refused.
    enum Giver: Equatable {
        /// Another caller: its newest waiting job, whichever its project.
        case caller(String)
        /// Another project of the new job's own caller: that project's newest waiting job.
        case project(FairKey)
    }

    /// Places held, over every caller.
    private(set) var total = 0
    private var callers: [String: Int] = [:]
    private var keys: [FairKey: Int] = [:]

    /// Requests let through to read their bodies that have not yet asked for their place: their
    /// ticket and caller. They count against the capacity when the next request is let through.
    private var promises: [Int: String] = [:]

    /// Requests held back, body unread, per caller.
    private var held: [String: Int] = [:]

    /// Places promised to requests reading their bodies and not yet asked for.
    var promised: Int { promises.count }

    /// Requests of `caller` held back now.
    func heldBack(of caller: String) -> Int { held[caller] ?? 0 }

    /// Records a request of `caller` held back, unless `limit` of its requests are held already:
    /// then false, and the request is refused at once, so that one caller's flood cannot hold more
    /// connections waiting than that (the rest cycle through quick refusals as before).
    mutating func hold(_ caller: String, limit: Int) -> Bool {
        guard heldBack(of: caller) < limit else { return false }
        held[caller, default: 0] += 1
        return true
    }

    /// Records that a request of `caller` held back stopped waiting (let through or refused).
    mutating func stopHolding(_ caller: String) {
        precondition(heldBack(of: caller) > 0, "\(caller) stops holding a request it does not hold")
        held[caller] = held[caller]! > 1 ? held[caller]! - 1 : nil
    }

    /// Places `caller` holds, over all its projects.
    func places(of caller: String) -> Int { callers[caller] ?? 0 }

    /// Places `key` holds.
    func places(of key: FairKey) -> Int { keys[key] ?? 0 }

    /// Records a place taken for `key`.
    mutating func take(_ key: FairKey) {
        total += 1
        callers[key.caller, default: 0] += 1
        keys[key, default: 0] += 1
    }

    /// Records `key`'s place given back.
    mutating func release(_ key: FairKey) {
        precondition(places(of: key) > 0, "\(key) gives back a place it does not hold")
        total -= 1
        callers[key.caller] = callers[key.caller]! > 1 ? callers[key.caller]! - 1 : nil
        keys[key] = keys[key]! > 1 ? keys[key]! - 1 : nil
    }

    /// Records a place promised, under `ticket`, to a request of `caller` that may now read its body.
    mutating func promise(_ ticket: Int, to caller: String) {
        promises[ticket] = caller
    }

    /// Ends `ticket`'s promise, whether its request now asks for its place or ends without one;
    /// false when it had already ended.
    @discardableResult
    mutating func settle(_ ticket: Int) -> Bool {
        promises.removeValue(forKey: ticket) != nil
    }

    /// True when a new request of `caller` is held back, body unread: the caller already has jobs
    /// waiting in `queue`, the pool's `capacity` is taken or promised, and no one would give way to
    /// it (`givesWay(toCaller:queue:)`). Promises count, so when one place frees, one held request
    /// goes on, not every one that asks at that moment (each would read a body to be refused).
    func holdsBack<Element>(_ caller: String, capacity: Int, queue: FairQueue<Element>) -> Bool {
        queue.count(of: caller) > 0 && total + promises.count >= capacity && !givesWay(toCaller: caller, queue: queue)
    }

    /// Who gives way to a new job of `key` when the pool is full, or nil when the job is refused.
    ///
    /// The busiest other caller holding at least two places more than `key`'s caller, with a job
    /// still waiting in `queue` (a running job keeps its thread); failing one, the busiest other
    /// project of `key`'s own caller holding at least two places more than `key`'s project. So a
    /// caller cannot crowd another out by spreading its jobs over new projects, and a caller's
    /// busy project cannot crowd out its quiet one. Ties go to the name first in order, so the
    /// choice does not depend on a dictionary's order.
    func giver<Element>(for key: FairKey, queue: FairQueue<Element>) -> Giver? {
        let mine = places(of: key.caller)
        let busiestCaller = callers
            .filter { $0.key != key.caller && $0.value > mine + 1 && queue.count(of: $0.key) > 0 }
            .max { ($0.value, $1.key) < ($1.value, $0.key) }
        if let busiestCaller { return .caller(busiestCaller.key) }
        let mineInProject = places(of: key)
        let busiestProject = keys
            .filter { $0.key.caller == key.caller && $0.key != key && $0.value > mineInProject + 1 && queue.count(of: $0.key) > 0 }
            .max { ($0.value, $1.key.project) < ($1.value, $0.key.project) }
        return busiestProject.map { .project($0.key) }
    }

    /// True when someone would give way to a new job of `caller` in some project of its own: another
    /// caller as `giver(for:queue:)` chooses, or any project of `caller`'s holding two places or more
    /// with a job waiting (a new project of the caller's holds none). False means a job of `caller`
    /// is refused while the pool stays full, whatever its project.
    func givesWay<Element>(toCaller caller: String, queue: FairQueue<Element>) -> Bool {
        let mine = places(of: caller)
        return callers.contains { $0.key != caller && $0.value > mine + 1 && queue.count(of: $0.key) > 0 }
            || keys.contains { $0.key.caller == caller && $0.value > 1 && queue.count(of: $0.key) > 0 }
    }
}
