import SignalForwarding

/// The parsed fingerprints of the projects a replica read lately, by their sequence in the shared
/// store, so that reading a project again fetches the bytes of its new photos only: a row's
/// fingerprint never changes under its sequence, and a photo forgotten elsewhere is dropped here
/// when its row no longer comes back. Within a byte budget, the projects read least lately go
/// first. A pure value: `SharedProjectMemory` keeps it under its lock.
struct ParsedFingerprintCache<Fingerprint: Sendable & Equatable>: Sendable {
    /// A cached photo.
    typealias Photo = ProjectMemory<Fingerprint>.Photo

    /// The most bytes the cached photos may cost together.
    let budget: Int
    private var projects: [String: (photos: [UInt64: Photo], bytes: Int, used: UInt64)] = [:]
    private var reads: UInt64 = 0
    /// Bytes of every cached photo.
    private(set) var bytes = 0

    /// An empty cache within `budget` bytes.
    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The cached photos of `projectID`, by sequence.
    func photos(of projectID: String) -> [UInt64: Photo] {
        projects[projectID]?.photos ?? [:]
    }

    /// Makes `photos` the cached photos of `projectID` (those of its rows read now), then drops
    /// the projects read least lately while over the budget (the one just read last of all).
    mutating func replace(_ projectID: String, with photos: [Photo]) {
        reads += 1
        bytes -= projects[projectID]?.bytes ?? 0
        let cost = photos.reduce(0) { $0 + $1.bytes }
        projects[projectID] = (Dictionary(photos.map { ($0.sequence, $0) }, uniquingKeysWith: { $1 }), cost, reads)
        bytes += cost
        while bytes > budget, let oldest = projects.min(by: { $0.value.used < $1.value.used }) {
            projects[oldest.key] = nil
            bytes -= oldest.value.bytes
        }
    }
}
