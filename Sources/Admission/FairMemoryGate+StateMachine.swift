extension FairMemoryGate {
    /// The gate's decisions apart from its lock and its waiting tasks: which request is granted
    /// its units, when, and which waits. Each event (an arrival, a release, a request that stops
    /// waiting) returns the ids it granted; the gate holds one under its lock and resumes them.
    /// Pure, so its tests run without threads, sleeps or a clock.
    ///
    /// The rules, in order:
    /// - A request is granted only if its units are free.
    /// - Waiting requests are served caller by caller, the caller holding the fewest units first
    ///   (the earliest waiting among equals), each caller's requests in order of arrival. When the
    ///   request served next does not fit, nothing else is granted until it does: a large request
    ///   is not starved by a stream of small ones.
    /// - A part of the capacity, `reserve`, is kept for callers within their fair share (the
    ///   capacity over the callers holding or waiting): a caller may take from it only while
    ///   another caller is active and it stays within that share. So a caller alone, or over its
    ///   share, always leaves room for another caller's upload, which is granted at once rather
    ///   than after one of the first caller's bodies is done.
    /// - When nothing at all is held, any request that fits is granted (one larger than the
    ///   capacity less the reserve still gets in).
    struct StateMachine {
        /// A request waiting for its units.
        struct Request: Equatable {
            /// The gate's id of the request.
            let id: UInt64
            /// Who asked (`FairKey.caller`).
            let caller: String
            /// The units asked for.
            let units: Int
        }

        /// Why a request is not granted now.
        private enum Verdict {
            case grant
            /// It would take from the reserve, and is not a caller within its share.
            case overShare
            /// Its units are not free.
            case doesNotFit
        }

        /// The units that may be held at once.
        let capacity: Int
        /// The units only callers within their share may take (see the type's rules).
        let reserve: Int
        /// Units held, per caller holding any.
        private(set) var held: [String: Int] = [:]
        /// Units held over every caller.
        private(set) var totalHeld = 0
        /// Requests waiting, per caller, oldest first.
        private var waiting: [String: [Request]] = [:]

        /// A gate of `capacity` units of which `reserve` are kept for callers within their share.
        init(capacity: Int, reserve: Int) {
            self.capacity = capacity
            self.reserve = min(max(0, reserve), capacity)
        }

        /// Requests waiting, over every caller.
        var waitingCount: Int { waiting.values.reduce(0) { $0 + $1.count } }

        /// Callers holding units or waiting for them.
        var activeCallers: Int { held.keys.count + waiting.keys.filter { held[$0] == nil }.count }

        /// The units a caller may hold while the reserve is asked for: the capacity over the active callers.
        var share: Int { capacity / max(1, activeCallers) }

        /// True while request `id` waits.
        func isWaiting(_ id: UInt64) -> Bool {
            waiting.values.contains { $0.contains { $0.id == id } }
        }

        /// Request `request` arrives: returns the requests granted (it, at once, when the rules allow).
        mutating func arrive(_ request: Request) -> [Request] {
            waiting[request.caller, default: []].append(request)
            return grantWaiting()
        }

        /// `caller` gives back `units`: returns the waiting requests this lets in.
        mutating func release(_ units: Int, of caller: String) -> [Request] {
            let left = (held[caller] ?? 0) - units
            precondition(left >= 0, "released more units than \(caller) holds")
            held[caller] = left > 0 ? left : nil
            totalHeld -= units
            return grantWaiting()
        }

        /// Request `id` stops waiting (it timed out or was cancelled): returns whether it was
        /// waiting, and the waiting requests its leaving lets in (it may have blocked them).
        mutating func abandon(_ id: UInt64) -> (removed: Bool, granted: [Request]) {
            guard let caller = waiting.first(where: { $0.value.contains { $0.id == id } })?.key else { return (false, []) }
            waiting[caller]!.removeAll { $0.id == id }
            if waiting[caller]!.isEmpty { waiting[caller] = nil }
            return (true, grantWaiting())
        }

        /// Grants waiting requests in the type's order until the next one served does not fit.
        private mutating func grantWaiting() -> [Request] {
            var granted: [Request] = []
            // Callers whose next request would take from the reserve beyond their share: passed
            // over in this round (another's may still be within its own).
            var passedOver: Set<String> = []
            while let next = nextServed(besides: passedOver) {
                switch verdict(for: next) {
                case .grant:
                    waiting[next.caller]!.removeFirst()
                    if waiting[next.caller]!.isEmpty { waiting[next.caller] = nil }
                    held[next.caller, default: 0] += next.units
                    totalHeld += next.units
                    granted.append(next)
                case .overShare:
                    passedOver.insert(next.caller)
                case .doesNotFit:
                    return granted
                }
            }
            return granted
        }

        /// The oldest request of the waiting caller holding the fewest units (the earliest request among equals).
        private func nextServed(besides passedOver: Set<String>) -> Request? {
            var best: (held: Int, request: Request)?
            for (caller, requests) in waiting where !passedOver.contains(caller) {
                let holding = held[caller] ?? 0
                let first = requests[0]
                if let chosen = best, (chosen.held, chosen.request.id) < (holding, first.id) { continue }
                best = (holding, first)
            }
            return best?.request
        }

        private func verdict(for request: Request) -> Verdict {
            let free = capacity - totalHeld
            guard request.units <= free else { return .doesNotFit }
            if totalHeld == 0 || free - request.units >= reserve { return .grant }
            let active = activeCallers
            if active >= 2, (held[request.caller] ?? 0) + request.units <= capacity / active { return .grant }
            return .overShare
        }
    }
}
