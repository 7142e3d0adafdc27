import BlurMetrics
import LumaAnalysis
import TestFixtures
import Testing

/// `plane` turned a quarter clockwise.
private func turned(_ plane: LumaPlane) -> LumaPlane {
    var pixels = [UInt8](repeating: 0, count: plane.pixels.count)
    for y in 0..<plane.height {
        for x in 0..<plane.width {
            pixels[x * plane.height + (plane.height - 1 - y)] = plane.pixels[y * plane.width + x]
        }
    }
    return LumaPlane(width: plane.height, height: plane.width, pixels: pixels)
}

/// `plane` without `dx` columns on the left and `dy` rows on top.
private func cropped(_ plane: LumaPlane, dx: Int, dy: Int) -> LumaPlane {
    var pixels: [UInt8] = []
    for y in dy..<plane.height { pixels += plane.pixels[(y * plane.width + dx)..<((y + 1) * plane.width)] }
    return LumaPlane(width: plane.width - dx, height: plane.height - dy, pixels: pixels)
}

/// `plane` at half its size (2x2 means), as a resized upload.
private func halved(_ plane: LumaPlane) -> LumaPlane {
    let width = plane.width / 2, height = plane.height / 2
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let top = 2 * y * plane.width + 2 * x, bottom = top + plane.width
            let sum = Int(plane.pixels[top]) + Int(plane.pixels[top + 1]) + Int(plane.pixels[bottom]) + Int(plane.pixels[bottom + 1])
            pixels[y * width + x] = UInt8((sum + 2) / 4)
        }
    }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

/// A 640x480 plane of uniform noise from `seed`: each seed another photo whose descriptors are
/// nowhere near another's (a distinct photo with nothing in common).
private func noise(seed: UInt64) -> LumaPlane {
    var random = SplitMix64(state: seed)
    return LumaPlane(width: 640, height: 480, pixels: (0..<(640 * 480)).map { _ in UInt8.random(in: 0...255, using: &random) })
}

/// `plane` brighter by `amount` grey levels.
private func brightened(_ plane: LumaPlane, by amount: Int) -> LumaPlane {
    LumaPlane(width: plane.width, height: plane.height, pixels: plane.pixels.map { UInt8(clamping: Int($0) + amount) })
}

/// `template` with its descriptors replaced by `descriptors` (four words each, keypoints at the
/// origin): a fingerprint whose descriptors a test chooses, read back through `init?(bytes:)`.
private func fingerprint(descriptors: [[UInt64]], like template: PhotoFingerprint) -> PhotoFingerprint {
    let bytes = template.bytes
    let featureCount = (0..<4).reduce(0) { $0 | Int(bytes[33 + $1]) << (8 * $1) }
    var features = Array(bytes[37..<41]) + [UInt8(descriptors.count & 0xFF), UInt8(descriptors.count >> 8)]
    features += [UInt8](repeating: 0, count: 4 * descriptors.count)
    for word in descriptors.joined() {
        for byte in 0..<8 { features.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(byte)))) }
    }
    var spliced = Array(bytes[0..<33])
    for byte in 0..<4 { spliced.append(UInt8(truncatingIfNeeded: features.count >> (8 * byte))) }
    spliced += features
    spliced += bytes[(37 + featureCount)...]
    return PhotoFingerprint(bytes: spliced)!
}

/// What `DuplicateScreen.sharedFeatures` counts, by its definition: the descriptors of `earlier`
/// within `closeDistance` bits of one of `new`'s that has the same 16 bits at one of the 16 chunk
/// positions, compared pair by pair.
private func sharedByDefinition(_ earlier: [[UInt64]], _ new: [[UInt64]]) -> Int {
    earlier.filter { theirs in
        new.contains { ours in
            let differing: Int = zip(theirs, ours).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
            let close = differing <= DuplicateScreen.closeDistance
            let sharesChunk = (0..<16).contains { (position: Int) -> Bool in
                let difference: UInt64 = theirs[position / 4] ^ ours[position / 4]
                return (difference >> UInt64(16 * (position % 4))) & 0xFFFF == 0
            }
            return close && sharesChunk
        }
    }.count
}

@Suite("Candidates before comparisons: the duplicate screen")
struct DuplicateScreenTests {
    @Test("every copy (crop, quarter turn, half size, brighter, the same file) passes the screen and is found as the unscreened comparison finds it")
    func copiesPass() {
        let original = TestScenes.shapes(width: 1365, height: 1024, seed: 5)
        let fingerprint = PhotoFingerprint(of: original)
        let copies = [cropped(original, dx: 136, dy: 102), turned(original), halved(original), brightened(original, by: 10), original]
        for (index, copy) in copies.enumerated() {
            let screen = DuplicateScreen(of: PhotoFingerprint(of: copy))
            #expect(screen.admits(fingerprint), "copy \(index): \(screen.sharedFeatures(with: fingerprint)) shared features")
            #expect(fingerprint.matches(screen.fingerprint), "copy \(index)")
            #expect(screen.earliestMatch(among: [fingerprint], fingerprint: { $0 }).match == fingerprint, "copy \(index)")
        }
        // The same photo shares every descriptor; counting stops at the limit asked for.
        let itself = DuplicateScreen(of: fingerprint)
        #expect(itself.sharedFeatures(with: fingerprint) == fingerprint.features.count)
        #expect(itself.sharedFeatures(with: fingerprint, upTo: 3) == 3)
    }

    @Test("photos with nothing in common are screened out: a project of them costs no full comparison, and the copy among them is the one compared")
    func distinctScreenedOut() {
        let project = (0..<16).map { PhotoFingerprint(of: noise(seed: UInt64(100 + $0))) }
        let newcomer = noise(seed: 999)
        let screen = DuplicateScreen(of: PhotoFingerprint(of: newcomer))
        let alone = screen.earliestMatch(among: project, fingerprint: { $0 })
        #expect(alone.match == nil)
        #expect(alone.compared == 0, "every distinct photo is spared the full comparison")
        #expect(project.allSatisfy { screen.sharedFeatures(with: $0) < screen.minimumSharedFeatures })
        // A darker copy of the newcomer's photo in the middle of the project: found, and the only photo compared.
        let copy = PhotoFingerprint(of: brightened(newcomer, by: -10))
        var withCopy = project
        withCopy.insert(copy, at: 7)
        let found = screen.earliestMatch(among: withCopy, fingerprint: { $0 })
        #expect(found.match == copy && found.compared == 1)
    }

    @Test("the screen never changes a verdict: over a project of scenes and their copies, it finds what comparing with every photo finds")
    func sameVerdicts() {
        let planes = (0..<5).map { TestScenes.shapes(width: 700, height: 520, seed: UInt32(40 + $0)) }
        var project: [PhotoFingerprint] = []
        for plane in planes {
            project.append(PhotoFingerprint(of: plane))
            project.append(PhotoFingerprint(of: turned(cropped(plane, dx: 35, dy: 26))))
        }
        for (index, photo) in project.enumerated() {
            let earlier = Array(project[..<index])
            let screened = DuplicateScreen(of: photo).earliestMatch(among: earlier.indices, fingerprint: { earlier[$0] }).match
            let everyOne = earlier.indices.first { earlier[$0].matches(photo) }
            #expect(screened == everyOne, "photo \(index)")
            #expect((screened != nil) == (index % 2 == 1), "photo \(index): a copy is found, an original is not")
        }
    }

    @Test("the screen counts exactly the descriptors its definition counts: near and far copies, values many descriptors share, values that fold alike")
    func countsByDefinition() {
        var random = SplitMix64(state: 48)
        func word() -> UInt64 { UInt64.random(in: .min ... .max, using: &random) }
        // The new photo: 128 descriptors, 40 of them with one value at chunk 3 (a long run in its
        // table), 20 with one value at chunk 12.
        var new = (0..<128).map { _ in [word(), word(), word(), word()] }
        for index in 0..<40 { new[index][0] = new[index][0] & ~(0xFFFF << 48) | 0x1234 << 48 }
        for index in 40..<60 { new[index][3] = new[index][3] & ~0xFFFF | 0xBEEF }
        // The earlier photo: copies of new descriptors with 0 to 60 bits flipped, random ones,
        // ones sharing the crowded values but far away, and ones whose chunks fold like the new
        // photo's without being equal.
        var earlier: [[UInt64]] = []
        for index in 0..<128 {
            var copy = new[(index * 7) % 128]
            switch index % 4 {
            case 0:
                for _ in 0..<(index % 61) { let bit = Int.random(in: 0..<256, using: &random); copy[bit / 64] ^= 1 << UInt64(bit % 64) }
            case 1:
                copy = [word(), word(), word(), word()]
            case 2:
                copy = [word() & ~(0xFFFF << 48) | 0x1234 << 48, word(), word(), word() & ~0xFFFF | 0xBEEF]
            default:
                for position in 0..<16 { copy[position / 4] ^= 0x1001 << UInt64(16 * (position % 4)) }
            }
            earlier.append(copy)
        }
        let template = PhotoFingerprint(of: TestScenes.shapes(width: 640, height: 480, seed: 9))
        let screen = DuplicateScreen(of: fingerprint(descriptors: new, like: template))
        let expected = sharedByDefinition(earlier, new)
        #expect(expected > 10 && expected < 100, "the case holds shared and unshared descriptors: \(expected)")
        #expect(screen.sharedFeatures(with: fingerprint(descriptors: earlier, like: template)) == expected)
        #expect(screen.sharedFeatures(with: fingerprint(descriptors: earlier, like: template), upTo: 5) == 5)
        // Real photos: each of a project of scenes and their copies against every other.
        let planes = (0..<4).map { TestScenes.shapes(width: 700, height: 520, seed: UInt32(60 + $0)) }
        let photos = planes.flatMap { [PhotoFingerprint(of: $0), PhotoFingerprint(of: halved($0)), PhotoFingerprint(of: brightened($0, by: 12))] }
        func descriptors(_ print: PhotoFingerprint) -> [[UInt64]] {
            let words = print.features.bytes.dropFirst(6 + 4 * print.features.count)
            return stride(from: 0, to: words.count, by: 32).map { start in
                (0..<4).map { word in (0..<8).reduce(UInt64(0)) { $0 | UInt64(words[words.startIndex + start + 8 * word + $1]) << (8 * UInt64($1)) } }
            }
        }
        for new in photos {
            let screen = DuplicateScreen(of: new)
            for other in photos {
                #expect(screen.sharedFeatures(with: other) == sharedByDefinition(descriptors(other), descriptors(new)))
            }
        }
    }

    @Test("a fingerprint without features (a flat picture) is screened by its hash alone")
    func flatByHash() {
        let flat = PhotoFingerprint(of: LumaPlane(width: 640, height: 480, pixels: [UInt8](repeating: 128, count: 640 * 480)))
        #expect(flat.features.count == 0)
        let screen = DuplicateScreen(of: flat)
        #expect(screen.sharedFeatures(with: flat) == 0)
        #expect(screen.admits(flat), "the same flat picture: its hash is within the distance")
        #expect(!screen.admits(PhotoFingerprint(of: TestScenes.shapes(width: 640, height: 480, seed: 3))))
    }
}
