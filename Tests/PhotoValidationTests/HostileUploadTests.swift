import Foundation
import TestFixtures
import Testing
import ValidatorHarness
@testable import PhotoValidation

/// Writes the mutations of `classes` for `photos` (`photo-validator-harness mutate`) into a fresh
/// temporary folder and returns the folder with its entries.
func mutatedFiles(_ classes: MutationSet.Classes, count: Int = 0, seed: UInt64 = 1, photos: [String]) throws -> (URL, [MutationSet.Entry]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pv-mutations-\(UUID().uuidString)")
    let set = try MutationSet.write(photos: photos.map { Fixtures.testdataFile($0) }, to: folder, classes: classes, count: count, seed: seed)
    return (folder, set.entries)
}

@Suite("Hostile uploads", .integration, .timeLimit(.minutes(5)))
struct HostileUploadTests {
    @Test("the 22-byte gzip upload that hung libvips is invalid_image (unsupported_format) at once")
    func gzipIsRefusedBySniffing() async throws {
        let output = try await validate(Fixtures.testdataFile("hostile/gzip-trailing-byte.jpg"), as: .room)
        #expect(output.failures == [.invalidImage])
        #expect(output.details.error == "unsupported_format")
        #expect(output.details.format == nil)
    }

    @Test("a frame header declaring four times the rows the data holds is corrupt_pixels")
    func declaredRowsMissing() async throws {
        let output = try await validate(Fixtures.testdataFile("hostile/cups-height-x4.jpg"), as: .room)
        #expect(output.failures == [.invalidImage])
        #expect(output.details.error == "corrupt_pixels")
    }

    @Test("random bytes in a DC refinement scan cannot be seen by any decoder: the file decodes, as a photo")
    func undetectableRefinementBits() async throws {
        // The bytes landed in the scan that carries one raw bit per block (no Huffman code, no
        // marker): every bit pattern is valid there, and the pixels differ from the original by at
        // most 3 grey levels. Calling it broken would mean calling valid JPEGs broken.
        let original = try await validate(Fixtures.testdataFile("photos/cups.jpg"), as: .room)
        let mutated = try await validate(Fixtures.testdataFile("hostile/cups-512-random-bytes-mid-scan.jpg"), as: .room)
        #expect(mutated.failures == original.failures)
        let scores = (try #require(original.details.blurScore), try #require(mutated.details.blurScore))
        #expect(abs(scores.0 - scores.1) / scores.0 < 0.01)
    }

    @Test("generated corrupt JPEG, PNG, WebP and HEIC classes are all invalid_image")
    func knownCorruptClasses() async throws {
        let (folder, rows) = try mutatedFiles(.known, photos: [
            "variants/same-room.jpg", "photos/indoor-ceiling-lamps.jpg", "photos/outdoor-path.jpg",
            "variants/same-room.png", "photos/small-coffee.png", "variants/same-room.webp", "variants/same-room.heic",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(rows.count >= 20)
        for row in rows {
            let output = try await validate(folder.appendingPathComponent(row.file), as: .room)
            #expect(output.failures == [.invalidImage], "\(row.mutationClass) of \(row.source) gave \(output.failures) \(output.details.error ?? "")")
        }
    }

    @Test("declared-huge headers over little data are refused or fail within the memory budget")
    func declaredHuge() async throws {
        let (folder, rows) = try mutatedFiles(.huge, photos: [
            "variants/same-room.jpg", "photos/cups.jpg", "variants/same-room.png", "variants/same-room.webp", "variants/same-room.heic",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(rows.count >= 6)
        for row in rows {
            let output = try await validate(folder.appendingPathComponent(row.file), as: .room)
            #expect(output.failures == [.invalidImage], "\(row.mutationClass) of \(row.source) gave \(output.failures)")
        }
    }
}
