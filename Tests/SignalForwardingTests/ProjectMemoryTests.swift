import Foundation
import TestFixtures
import Testing
@testable import SignalForwarding

@Suite("The duplicate memory's limits, without threads")
struct ProjectMemoryTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func memory(retention: TimeInterval = 3600, perProject: Int = 4, totalBytes: Int = 1_000) -> ProjectMemory<String> {
        ProjectMemory(limits: .init(retention: retention, photosPerProject: perProject, totalBytes: totalBytes))
    }

    @Test("a project keeps its newest photos: the oldest goes when one more arrives, and is reported")
    func perProjectCount() {
        var memory = memory(perProject: 3)
        for index in 0..<3 {
            let kept = memory.remember("F\(index)", bytes: 10, photoID: "p\(index)", in: "a", at: start + Double(index))
            #expect(kept.evicted.isEmpty)
        }
        let kept = memory.remember("F3", bytes: 10, photoID: "p3", in: "a", at: start + 3)
        #expect(kept.photo?.photoID == "p3")
        #expect(kept.evicted == [EvictedPhoto(projectID: "a", photoID: "p0", reason: .projectFull)])
        #expect(memory.photos(of: "a", now: start + 4).map(\.photoID) == ["p1", "p2", "p3"])
        #expect(memory.count == 3 && memory.totalBytes == 30)
    }

    @Test("over the byte budget the oldest photos of every project go first, whichever project grew")
    func budget() {
        var memory = memory(perProject: 100, totalBytes: 100)
        memory.remember("A", bytes: 40, photoID: "a1", in: "a", at: start)
        memory.remember("B", bytes: 40, photoID: "b1", in: "b", at: start + 1)
        let third = memory.remember("C", bytes: 40, photoID: "b2", in: "b", at: start + 2)
        #expect(third.evicted == [EvictedPhoto(projectID: "a", photoID: "a1", reason: .budget)])
        #expect(memory.totalBytes == 80 && memory.projectCount == 1)
        // A photo larger than the whole budget is not kept, and evicts nothing.
        let huge = memory.remember("H", bytes: 101, photoID: "h", in: "c", at: start + 3)
        #expect(huge.photo == nil && huge.evicted.isEmpty && memory.totalBytes == 80)
    }

    @Test("photos past the retention are not compared and are pruned; forgetting gives the bytes back")
    func ageAndForget() {
        var memory = memory(retention: 100)
        memory.remember("A", bytes: 10, photoID: "old", in: "a", at: start)
        memory.remember("B", bytes: 10, photoID: "new", in: "a", at: start + 60)
        #expect(memory.photos(of: "a", now: start + 130).map(\.photoID) == ["new"])
        let pruned = memory.prune(now: start + 130)
        #expect(pruned == [EvictedPhoto(projectID: "a", photoID: "old", reason: .age)])
        let forgotten = memory.forget("new", of: "a"), again = memory.forget("new", of: "a")
        #expect(forgotten?.fingerprint == "B")
        #expect(again == nil)
        #expect(memory.count == 0 && memory.totalBytes == 0 && memory.projectCount == 0)
    }

    @Test("photos(after:) hands over only the photos remembered since a generation, other than the one asked about")
    func arrivals() {
        var memory = memory()
        memory.remember("A", bytes: 10, photoID: "a", in: "p", at: start)
        let generation = memory.generation
        memory.remember("B", bytes: 10, photoID: "b", in: "p", at: start)
        memory.remember("C", bytes: 10, photoID: "c", in: "other", at: start)
        memory.remember("D", bytes: 10, photoID: "d", in: "p", at: start)
        #expect(memory.photos(of: "p", after: generation, now: start).map(\.photoID) == ["b", "d"])
        #expect(memory.photos(of: "p", after: generation, besides: "d", now: start).map(\.photoID) == ["b"])
        #expect(memory.photos(of: "p", after: memory.generation, now: start).isEmpty)
    }

    @Test("10,000 photos over 500 projects, some forgotten, stay within every limit and evict oldest first, as a plain model does")
    func manyPhotosAgainstAModel() {
        var memory = memory(retention: 1e9, perProject: 8, totalBytes: 50_000)
        // The model: every photo in order, evicted by the same rules, scanned the slow way.
        var model: [(project: String, photo: String, bytes: Int)] = []
        var random = SplitMix64(state: 7)
        for index in 0..<10_000 {
            let project = "p\(random.next() % 500)", bytes = 20 + Int(random.next() % 200)
            let evicted = memory.remember("F\(index)", bytes: bytes, photoID: "x\(index)", in: project, at: start + Double(index)).evicted
            model.append((project, "x\(index)", bytes))
            var expected: [EvictedPhoto] = []
            if model.count { $0.project == project } > 8, let first = model.firstIndex(where: { $0.project == project }) {
                expected.append(EvictedPhoto(projectID: project, photoID: model[first].photo, reason: .projectFull))
                model.remove(at: first)
            }
            while model.reduce(0, { $0 + $1.bytes }) > 50_000 {
                expected.append(EvictedPhoto(projectID: model[0].project, photoID: model[0].photo, reason: .budget))
                model.removeFirst()
            }
            #expect(evicted == expected)
            if index % 7 == 0, let victim = model.indices.randomElement(using: &random) {
                let forgotten = memory.forget(model[victim].photo, of: model[victim].project)
                #expect(forgotten != nil)
                model.remove(at: victim)
            }
            #expect(memory.totalBytes <= 50_000)
        }
        #expect(memory.count == model.count && memory.totalBytes == model.reduce(0) { $0 + $1.bytes })
    }
}
