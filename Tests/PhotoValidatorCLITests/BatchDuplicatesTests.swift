import BlurMetrics
import LumaAnalysis
import PhotoValidation
import PhotoValidatorServer
import TestFixtures
import ValidatorConfiguration
import Testing
@testable import PhotoValidatorCLI

/// A passed room photo's answer carrying the fingerprint of a 512x512 plane of noise from `seed`:
/// each seed another photo, the same seed the same photo.
private func passedPhoto(seed: UInt64) -> ValidatePhotoOutput {
    var random = SplitMix64(state: seed)
    let pixels = (0..<(512 * 512)).map { _ in UInt8.random(in: 0...255, using: &random) }
    var details = ValidationDetails(photoType: .room, minimumShortSide: 1024, blurThreshold: 24)
    details.fingerprint = PhotoFingerprint(of: LumaPlane(width: 512, height: 512, pixels: pixels)).base64
    return ValidatePhotoOutput(failures: [], photoType: .room, minimumShortSide: 1024, details: details)
}

@Suite("validate's duplicate check compares with a project's newest accepted photos only", .timeLimit(.minutes(10)))
struct BatchDuplicatesTests {
    @Test("validate's window is the daemon's setting, duplicates.photos_per_project, 64 by default")
    func windowIsTheDaemons() {
        #expect(ValidateCommand.settingsCatalog.setting(forKey: "duplicates.photos_per_project") == .duplicatesPhotosPerProject)
        #expect(Setting.duplicatesPhotosPerProject.literalDefault == "64")
    }

    @Test("past 64 accepted photos, a copy of one that fell out of the window is no duplicate, a copy of one inside is; comparisons stay at most 64 a photo")
    func window() {
        let photos = (0..<70).map { passedPhoto(seed: UInt64($0) + 1) }
        var check = BatchDuplicates(scope: .folder, rule: .default, window: 64)
        for (index, photo) in photos.enumerated() {
            let judged = check.judge(photo, path: "project/\(index).jpg")
            #expect(judged.passed, "photo \(index) is distinct from the others")
            #expect(photo.details.fingerprint != nil && judged.details.fingerprint == nil, "the record leaves out the fingerprint the check read")
        }
        // Photo k was screened against the min(k, 64) accepted before it, and none compared in full:
        // photos with nothing in common are screened out (candidates before comparisons, issue 51).
        #expect(check.comparisons == (0..<70).map { min($0, 64) }.reduce(0, +))
        #expect(check.fullComparisons == 0)

        // Photos 6...69 are the 64 newest; photo 0 fell out, so its copy is new (and joins the window, pushing photo 6 out).
        let before = check.comparisons
        let copyOfOldest = check.judge(photos[0], path: "project/z-copy-of-0.jpg")
        #expect(copyOfOldest.passed)
        #expect(copyOfOldest.details.duplicateOf == nil)
        #expect(check.comparisons - before == 64)

        // Photos 7...69 and the copy of 0 are the window: a copy of photo 10 matches the fourth, after 7, 8 and 9.
        let copyInside = check.judge(photos[10], path: "project/z-copy-of-10.jpg")
        #expect(copyInside.failures == [.duplicatePhoto])
        #expect(copyInside.details.duplicateOf == "project/10.jpg")
        #expect(copyInside.details.fingerprint == nil)
        #expect(check.comparisons - before == 64 + 4)
        #expect(check.fullComparisons == 1, "only the copy's original passed the screen")

        // Another folder is another project: nothing to compare with.
        let elsewhere = check.judge(photos[10], path: "other/10.jpg")
        #expect(elsewhere.passed)
        #expect(check.comparisons - before == 64 + 4)
    }

    @Test("the earliest match among the window names the earlier photo; failed photos are not remembered")
    func earliestMatchAndFailures() {
        let photo = passedPhoto(seed: 99)
        let failed = photo.adding(.blurry)
        var check = BatchDuplicates(scope: .run, rule: .default, window: 64)
        #expect(!check.judge(failed, path: "a/0-blurry.jpg").passed)
        #expect(check.judge(photo, path: "a/1.jpg").passed, "a failed photo is nobody's original")
        let copy = check.judge(photo, path: "b/2.jpg")
        #expect(copy.details.duplicateOf == "a/1.jpg", "--duplicates run: one project across folders")
        #expect(check.judge(photo, path: "c/3.jpg").details.duplicateOf == "a/1.jpg")
    }
}
