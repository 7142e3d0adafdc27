extension PhotoValidator {
    /// The answer for a photo of `photoType` from its `measurements`, judged by this validator's
    /// thresholds: what validating it again would answer, timings aside. Nil when the photo was
    /// measured with a blur threshold that leaves this one's answer open (a score compared with
    /// the finer plane or a second decode only under a higher threshold): decode it again.
    public func judge(_ measurements: PhotoMeasurements, as photoType: PhotoType) -> ValidatePhotoOutput? {
        guard let judged = settings.judgement(measurements, as: photoType, timings: StageTimings()) else { return nil }
        return ValidatePhotoOutput(failures: judged.failures, photoType: photoType, minimumShortSide: judged.details.minimumShortSide, details: judged.details)
    }
}
