import Foundation
@testable import DecodeWorker
import PhotoChecks
import PhotoFormat
import PhotoStructure
import PhotoValidation
import Testing

/// What the worker host does besides serving frames (the frames themselves, and the worker in its
/// sandbox, are tested from the daemon's side in `DecodeSandboxTests`).
@Suite("The decode worker host")
struct DecodeWorkerHostTests {
    @Test("the warm-up photos are one valid photo of each accepted format, each decoded and measured by the checks a worker runs")
    func warmUpCoversEveryFormat() throws {
        let checks = try InProcessChecks(settings: ValidationSettings())
        var formats: [ImageFormat] = []
        for (name, base64) in WarmUpPhotos.all {
            let bytes = try #require(Data(base64Encoded: base64), "\(name) is not base64")
            let output = bytes.withUnsafeBytes { checks.validate($0, as: .inspiration, previews: PreviewBounds(), evenIfFailed: true, fingerprint: true) }
            #expect(output.output.details.error == nil, "\(name): \(output.output.details.errorDetail ?? "")")
            #expect(output.output.details.width == 64 && output.output.details.height == 64, "\(name)")
            if case .failure(let failure) = output.preview { Issue.record("\(name)'s preview failed: \(failure.message)") }
            formats.append(try #require(bytes.withUnsafeBytes { DeclaredSize($0) }?.format, "\(name) declares no size"))
        }
        #expect(formats.sorted { $0.rawValue < $1.rawValue } == ImageFormatProfile.all.map(\.format).sorted { $0.rawValue < $1.rawValue })
    }

    @Test("a decoder's own out-of-memory message becomes memory_limit_exceeded; any other failure is answered as it was")
    func namingMemory() {
        func output(_ reason: DecodeFailure.Reason, _ message: String) -> ValidatePhotoOutput {
            ValidationSettings().answer(for: DecodeFailure(reason, message), as: .room, after: .milliseconds(3))
        }
        let renamed = DecodeWorkerHost.namingMemory(output(.libraryFailure, "vips: Out of memory allocating 400000000 bytes"))
        #expect(renamed.details.error == DecodeFailure.Reason.memoryLimitExceeded.rawValue)
        #expect(renamed.details.errorDetail?.hasSuffix("vips: Out of memory allocating 400000000 bytes") == true)
        #expect(renamed.failures == [.invalidImage])
        let other = output(.libraryFailure, "not a JPEG file: starts with 0x89 0x50")
        #expect(DecodeWorkerHost.namingMemory(other) == other)
        let already = output(.memoryLimitExceeded, "failed to allocate")
        #expect(DecodeWorkerHost.namingMemory(already) == already)
    }
}
