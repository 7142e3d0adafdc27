import PhotoValidation

extension ValidatePhotoOutput {
    /// This answer with the content check's result merged in: `failure` (if any) appended after
    /// the earlier checks' failures with its contract message, `content` in `details.content`, and
    /// the check's time in `details.timings_ms.content` and the total.
    package func addingContentCheck(failure: FailureCode?, content: ContentCheckDetails, milliseconds: Double) -> ValidatePhotoOutput {
        var details = details
        details.content = content
        details.timingsMs.content = milliseconds
        details.timingsMs.total += milliseconds
        return ValidatePhotoOutput(
            failures: failures + (failure.map { [$0] } ?? []),
            photoType: details.photoType,
            minimumShortSide: details.minimumShortSide,
            details: details
        )
    }
}
