import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures

/// Validates the file at `url` with `settings`, on a thread of its own (decoding must not hold the
/// cooperative threads that other suites' servers and timers need).
func validate(_ url: URL, as photoType: PhotoType, settings: ValidationSettings = ValidationSettings()) async throws -> ValidatePhotoOutput {
    try await offloaded {
        let validator = try PhotoValidator(settings: settings)
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { validator.validate($0, as: photoType) }
    }
}

/// The failures a manifest cell such as `low_resolution+blurry` or `pass` names, keeping only the
/// codes decided by decoding and resolution (blur and content are tuned and checked elsewhere).
func decodeAndResolutionFailures(_ expected: String) -> [FailureCode] {
    guard expected != "pass" else { return [] }
    return expected.split(separator: "+").compactMap { FailureCode(rawValue: String($0)) }
        .filter { $0 == .invalidImage || $0 == .lowResolution }
}
