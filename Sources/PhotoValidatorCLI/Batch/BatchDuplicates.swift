import Foundation
import LumaAnalysis
import PhotoValidation

/// The duplicate check of a `validate` run: a photo that passed is remembered in its project
/// (its folder, or the whole run), and a later photo of the same project that matches one of
/// them is `duplicate_photo` naming the earlier file. Photos are judged in path order.
struct BatchDuplicates {
    /// What a project is.
    let scope: DuplicateScope
    /// When two photos are one photo.
    let rule: DuplicateRule
    private var accepted: [String: [(path: String, fingerprint: PhotoFingerprint)]] = [:]

    /// A check over `scope` by `rule`.
    init(scope: DuplicateScope, rule: DuplicateRule) {
        self.scope = scope
        self.rule = rule
    }

    /// `output` for the photo at `path`, `duplicate_photo` when an earlier photo of its project
    /// matches; remembered when it passed.
    mutating func judge(_ output: ValidatePhotoOutput, path: String) -> ValidatePhotoOutput {
        guard scope != .off, let fingerprint = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)) else { return output }
        let project = scope == .run ? "" : (path as NSString).deletingLastPathComponent
        if let earlier = accepted[project, default: []].first(where: { $0.fingerprint.matches(fingerprint, rule: rule) }) {
            return output.adding(.duplicatePhoto) { $0.duplicateOf = earlier.path }
        }
        if output.passed { accepted[project, default: []].append((path, fingerprint)) }
        return output
    }
}
