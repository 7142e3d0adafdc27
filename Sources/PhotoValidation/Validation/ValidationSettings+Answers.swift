import PhotoFormat

extension ValidationSettings {
    /// The answer for a `photoType` photo that did not decode for `failure` after `elapsed`:
    /// `invalid_image` with the failure's reason and message. The wording of every decode that
    /// failed outside the photo's checks (a crashed worker, a time limit, the memory budget), in
    /// this process whichever side of the worker wall decoded.
    public func answer(for failure: DecodeFailure, as photoType: PhotoType, after elapsed: Duration) -> ValidatePhotoOutput {
        let minimumShortSide = minimumShortSide(for: photoType)
        var details = ValidationDetails(photoType: photoType, minimumShortSide: minimumShortSide, blurThreshold: blurThreshold(for: photoType))
        details.error = failure.reason.rawValue
        details.errorDetail = failure.message
        details.timingsMs.total = elapsed.milliseconds
        return ValidatePhotoOutput(failures: [.invalidImage], photoType: photoType, minimumShortSide: minimumShortSide, details: details)
    }
}
