import Foundation
import PhotoValidation
import TestFixtures

/// Validates the file at `url` with `settings`.
func validate(_ url: URL, as photoType: PhotoType, settings: ValidationSettings = ValidationSettings()) throws -> ValidatePhotoOutput {
    let validator = try PhotoValidator(settings: settings)
    let data = try Data(contentsOf: url)
    return data.withUnsafeBytes { validator.validate($0, as: photoType) }
}

/// The failures a manifest cell such as `low_resolution+blurry` or `pass` names, keeping only the
/// codes decided by decoding and resolution (blur and content are tuned and checked elsewhere).
func decodeAndResolutionFailures(_ expected: String) -> [FailureCode] {
    guard expected != "pass" else { return [] }
    return expected.split(separator: "+").compactMap { FailureCode(rawValue: String($0)) }
        .filter { $0 == .invalidImage || $0 == .lowResolution }
}
