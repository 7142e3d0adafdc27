import Foundation
import LumaAnalysis
import PhotoValidation

/// The duplicate check of a `validate` run: a photo that passed is remembered in its project
/// (its folder, or the whole run), and a later photo of the same project that matches one of
/// them is `duplicate_photo` naming the earlier file. Photos are judged in path order.
///
/// As in the daemon's memory (`ProjectMemory`), a photo is compared with at most the `window`
/// newest accepted photos of its project (`duplicates.photos_per_project`, 64 by default), the
/// earliest match among them winning, so a folder of n photos costs at most n × `window`
/// comparisons rather than n². Each photo's `DuplicateScreen` passes to the full comparison only
/// the earlier photos that could be copies of it (about a microsecond each to screen), so a folder
/// of distinct photos pays the window's screening, not its comparisons.
struct BatchDuplicates {
    /// What a project is.
    let scope: DuplicateScope
    /// When two photos are one photo.
    let rule: DuplicateRule
    /// How many of a project's newest accepted photos a photo is compared with.
    let window: Int
    /// Earlier photos screened so far (one fingerprint against another).
    private(set) var comparisons = 0
    /// Of those, the ones the screen admitted, compared in full.
    private(set) var fullComparisons = 0
    // Each project's newest accepted photos, oldest first, at most `window` of them.
    private var accepted: [String: [(path: String, fingerprint: PhotoFingerprint)]] = [:]

    /// A check over `scope` by `rule`, comparing with the `window` newest accepted photos of a
    /// project (`duplicates.photos_per_project`).
    init(scope: DuplicateScope, rule: DuplicateRule, window: Int) {
        precondition(window > 0, "the duplicate window must hold at least one photo")
        self.scope = scope
        self.rule = rule
        self.window = window
    }

    /// `output` for the photo at `path`, `duplicate_photo` when one of the `window` newest passed
    /// photos of its project matches (the earliest of them that does); remembered when it passed.
    /// The answer leaves out `details.fingerprint`, which only this check reads: a record carries
    /// it no more than a daemon answer does unless asked.
    mutating func judge(_ output: ValidatePhotoOutput, path: String) -> ValidatePhotoOutput {
        guard scope != .off, let fingerprint = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)) else { return output }
        let output = output.withoutFingerprint
        let project = scope == .run ? "" : (path as NSString).deletingLastPathComponent
        let newest = accepted[project, default: []]
        if !newest.isEmpty {
            let found = DuplicateScreen(of: fingerprint, rule: rule).earliestMatch(among: newest.indices) { newest[$0].fingerprint }
            comparisons += found.match.map { $0 + 1 } ?? newest.count
            fullComparisons += found.compared
            if let earlier = found.match {
                return output.adding(.duplicatePhoto) { $0.duplicateOf = newest[earlier].path }
            }
        }
        if output.passed {
            accepted[project, default: []].append((path, fingerprint))
            if accepted[project]!.count > window { accepted[project]!.removeFirst() }
        }
        return output
    }
}
