import Foundation
import TestFixtures

/// Counts how many single-bit flips in a HEIC's coded data each binary catches: copies of the
/// photo with one random bit flipped past the first kilobyte of its `mdat` box, validated with
/// each binary, sorted into refused (`invalid_image`), passed with changed pixels (damage that got
/// through: a different Laplacian variance), unchanged (a bit the picture does not use) and
/// judged otherwise.
package struct HEICBitFlips: Sendable {
    /// One binary's counts.
    package struct Counts: Sendable, CustomStringConvertible {
        /// The binary.
        package let binary: String
        /// Copies validated.
        package let flips: Int
        /// `invalid_image`.
        package let refused: Int
        /// Passed with pixels that differ from the original's.
        package let changed: Int
        /// Same Laplacian variance as the original.
        package let unchanged: Int
        /// Any other verdict.
        package let other: Int
        /// One line of figures.
        package var description: String {
            "\(binary): \(flips) flips: \(refused) refused, \(changed) passed with changed pixels, \(unchanged) unchanged, \(other) judged otherwise"
        }
    }

    /// The photo.
    package let photo: URL
    /// Copies to make.
    package let count: Int
    /// The flips' seed.
    package let seed: UInt64

    /// Flips of `photo`.
    package init(photo: URL, count: Int = 50, seed: UInt64 = 50) {
        (self.photo, self.count, self.seed) = (photo, count, seed)
    }

    /// Writes the copies and validates them with each of `binaries`.
    package func run(binaries: [URL]) async throws -> [Counts] {
        let data = [UInt8](try Data(contentsOf: photo))
        guard let mdat = data.firstRange(of: Array("mdat".utf8))?.lowerBound, mdat + 4 + 1024 < data.count else {
            throw MutationSet.Failure(description: "\(photo.path) has no mdat box with more than a kilobyte of coded data")
        }
        let start = mdat + 4 + 1024
        var generator = SplitMix64(state: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pv-heic-bitflips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for index in 0..<count {
            var damaged = data
            damaged[Int.random(in: start..<data.count, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            let path = folder.appendingPathComponent(String(format: "flip-%03d.heic", index)).path
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        var results: [Counts] = []
        for binary in binaries {
            let original = try await Self.answers(binary, [photo.path]).first?["laplacian_variance"] as? Double
            var refused = 0, changed = 0, unchanged = 0, other = 0
            for answer in try await Self.answers(binary, paths) {
                let failures = answer["failures"] as? [String] ?? []
                if failures.contains("invalid_image") {
                    refused += 1
                } else if answer["laplacian_variance"] as? Double == original {
                    unchanged += 1
                } else if failures.isEmpty {
                    changed += 1
                } else {
                    other += 1
                }
            }
            results.append(Counts(binary: binary.path, flips: count, refused: refused, changed: changed, unchanged: unchanged, other: other))
        }
        return results
    }

    /// `validate --format jsonl` of `paths`: each answer's details with its `failures`.
    private static func answers(_ binary: URL, _ paths: [String]) async throws -> [[String: Any]] {
        let outcome = try await ProcessRunner.run(binary, ["validate", "--format", "jsonl", "--jobs", "2"] + paths)
        return outcome.standardOutput.split(separator: "\n").compactMap { line in
            guard let object = RawHTTPAnswer.jsonObject(String(line)) else { return nil }
            var details = object["details"] as? [String: Any] ?? [:]
            details["failures"] = object["failures"]
            return details
        }
    }
}
