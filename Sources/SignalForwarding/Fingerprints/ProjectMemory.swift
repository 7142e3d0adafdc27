import Foundation

/// The accepted photos of every project that the duplicate check compares with: each project's
/// newest photos within the retention period, under a per-project count and a total byte budget.
///
/// A pure value, not thread-safe: `PhotoFingerprintStore` keeps it under its lock, and its tests
/// drive it without threads. Every photo carries a sequence number, increasing with each photo
/// remembered, so a caller that compared a new photo with a project's photos outside the lock can
/// tell which photos arrived meanwhile (`photos(of:after:)`) and compare with those alone.
package struct ProjectMemory<Fingerprint: Sendable & Equatable>: Sendable {
    /// A remembered photo.
    package struct Photo: Sendable, Equatable {
        /// The photo's id in its project.
        package let photoID: String
        /// Its fingerprint, parsed once.
        package let fingerprint: Fingerprint
        /// When it was accepted.
        package let rememberedAt: Date
        /// What it costs to keep, in bytes; counted against the budget.
        package let bytes: Int
        /// Its place in the order photos were remembered.
        package let sequence: UInt64

        /// A photo from its parts (a store other than this memory, such as the shared one, hands these out too).
        package init(photoID: String, fingerprint: Fingerprint, rememberedAt: Date, bytes: Int, sequence: UInt64) {
            self.photoID = photoID
            self.fingerprint = fingerprint
            self.rememberedAt = rememberedAt
            self.bytes = bytes
            self.sequence = sequence
        }
    }

    /// The bounds of the memory.
    package struct Limits: Sendable, Equatable {
        /// How long a photo is remembered, in seconds.
        package var retention: TimeInterval
        /// The most photos one project keeps (its newest); also the most an upload is compared with.
        package var photosPerProject: Int
        /// The most bytes all photos together may cost.
        package var totalBytes: Int

        /// Limits from their parts.
        package init(retention: TimeInterval, photosPerProject: Int, totalBytes: Int) {
            self.retention = retention
            self.photosPerProject = max(1, photosPerProject)
            self.totalBytes = max(0, totalBytes)
        }
    }

    /// The bounds in force.
    package let limits: Limits
    /// Each project's photos, oldest first.
    private var projects: [String: [Photo]] = [:]
    // Every remembered photo in sequence order, to find the oldest of all without scanning every
    // project; photos forgotten meanwhile stay until reached (or a compaction) and are skipped.
    private var order: [(projectID: String, sequence: UInt64)] = []
    private var orderStart = 0
    private var lastSequence: UInt64 = 0
    /// Bytes of every remembered photo.
    package private(set) var totalBytes = 0
    /// Photos remembered.
    package private(set) var count = 0

    /// An empty memory within `limits`.
    package init(limits: Limits) {
        self.limits = limits
    }

    /// Projects with photos.
    package var projectCount: Int { projects.count }

    /// The sequence number of the newest photo remembered in any project (0 before the first).
    package var generation: UInt64 { lastSequence }

    /// The photos of `projectID` an upload is compared with: those within the retention period
    /// at `now`, other than `photoID`, oldest first.
    package func photos(of projectID: String, besides photoID: String? = nil, now: Date) -> [Photo] {
        photos(of: projectID, after: 0, besides: photoID, now: now)
    }

    /// The photos of `projectID` remembered after sequence `after` (within the retention period,
    /// other than `photoID`), oldest first.
    package func photos(of projectID: String, after: UInt64, besides photoID: String? = nil, now: Date) -> [Photo] {
        let cutoff = now.timeIntervalSince1970 - limits.retention
        return (projects[projectID] ?? []).filter {
            $0.sequence > after && $0.photoID != photoID && $0.rememberedAt.timeIntervalSince1970 >= cutoff
        }
    }

    /// The photo `photoID` of `projectID`, if remembered.
    package func photo(_ photoID: String, of projectID: String) -> Photo? {
        projects[projectID]?.first { $0.photoID == photoID }
    }

    /// Remembers `fingerprint` as `photoID` of `projectID` (replacing a photo of that id), then
    /// forgets what the limits no longer hold: the project's oldest beyond `photosPerProject`,
    /// then the oldest of all while over `totalBytes`. A photo costing more than the whole budget
    /// is not kept. Returns the photo as remembered (nil when not kept) and what was evicted.
    @discardableResult
    package mutating func remember(_ fingerprint: Fingerprint, bytes: Int, photoID: String, in projectID: String,
                                  at time: Date) -> (photo: Photo?, evicted: [EvictedPhoto]) {
        guard bytes <= limits.totalBytes else { return (nil, []) }
        _ = forget(photoID, of: projectID)
        lastSequence += 1
        let photo = Photo(photoID: photoID, fingerprint: fingerprint, rememberedAt: time, bytes: bytes, sequence: lastSequence)
        projects[projectID, default: []].append(photo)
        order.append((projectID, photo.sequence))
        totalBytes += bytes
        count += 1
        var evicted: [EvictedPhoto] = []
        while let photos = projects[projectID], photos.count > limits.photosPerProject {
            evicted.append(EvictedPhoto(projectID: projectID, photoID: photos[0].photoID, reason: .projectFull))
            removeFirst(of: projectID)
        }
        while totalBytes > limits.totalBytes, let oldest = popOldest() {
            evicted.append(EvictedPhoto(projectID: oldest.projectID, photoID: oldest.photoID, reason: .budget))
            removeFirst(of: oldest.projectID)
        }
        compactIfSparse()
        return (projects[projectID]?.last?.sequence == photo.sequence ? photo : nil, evicted)
    }

    /// Forgets `photoID` of `projectID`; returns the photo when it was remembered.
    package mutating func forget(_ photoID: String, of projectID: String) -> Photo? {
        guard var photos = projects[projectID], let index = photos.firstIndex(where: { $0.photoID == photoID }) else { return nil }
        let photo = photos.remove(at: index)
        projects[projectID] = photos.isEmpty ? nil : photos
        totalBytes -= photo.bytes
        count -= 1
        compactIfSparse()
        return photo
    }

    /// Forgets every photo older than the retention period at `now`; returns them.
    package mutating func prune(now: Date) -> [EvictedPhoto] {
        let cutoff = now.timeIntervalSince1970 - limits.retention
        var evicted: [EvictedPhoto] = []
        // Photos are remembered in time order, so the expired ones are at the front of `order`
        // (a clock stepped back can leave a few behind a newer one: they go at a later prune).
        while let oldest = peekOldest(), oldest.rememberedAt.timeIntervalSince1970 < cutoff {
            _ = popOldest()
            evicted.append(EvictedPhoto(projectID: oldest.projectID, photoID: oldest.photoID, reason: .age))
            removeFirst(of: oldest.projectID)
        }
        compactIfSparse()
        return evicted
    }

    private mutating func removeFirst(of projectID: String) {
        guard var photos = projects[projectID], !photos.isEmpty else { return }
        let photo = photos.removeFirst()
        projects[projectID] = photos.isEmpty ? nil : photos
        totalBytes -= photo.bytes
        count -= 1
    }

    /// The oldest remembered photo of all, with its project; forgotten entries on the way are dropped.
    private mutating func peekOldest() -> (projectID: String, photoID: String, rememberedAt: Date)? {
        while orderStart < order.count {
            let entry = order[orderStart]
            // A project's photos are in sequence order and every older entry has been passed, so
            // a photo still remembered is its project's first.
            if let first = projects[entry.projectID]?.first, first.sequence == entry.sequence {
                return (entry.projectID, first.photoID, first.rememberedAt)
            }
            orderStart += 1
        }
        return nil
    }

    private mutating func popOldest() -> (projectID: String, photoID: String)? {
        guard let oldest = peekOldest() else { return nil }
        orderStart += 1
        return (oldest.projectID, oldest.photoID)
    }

    /// Rebuilds `order` once most of it is spent or forgotten, so it stays within twice the photos held.
    private mutating func compactIfSparse() {
        guard order.count - orderStart > 2 * count + 64 || orderStart > count + 64 else { return }
        order = projects.flatMap { projectID, photos in photos.map { (projectID, $0.sequence) } }.sorted { $0.sequence < $1.sequence }
        orderStart = 0
    }
}
