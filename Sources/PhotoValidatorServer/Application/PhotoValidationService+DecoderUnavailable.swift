import PhotoFormat
import PhotoValidation

extension PhotoValidationService {
    /// Throws 503 `decoder_unavailable` when no decode worker ran the photo `output` answers for
    /// (none could be started, none got ready within its time, or the one given it ended before it
    /// read it): that is the service's failure, never the photo's verdict. Its cause goes to
    /// `record` (the log), not to the client, and the refusal to the metrics' rejections.
    func refuseUnchecked(_ output: ValidatePhotoOutput, record: RequestRecord) throws(APIError) {
        guard output.details.error == DecodeFailure.Reason.decoderUnavailable.rawValue else { return }
        record.errorCause = "decoder_unavailable: \(output.details.errorDetail ?? "no decode worker could take the photo")"
        metrics.recordRejection(reason: "decoder_unavailable")
        throw .decoderUnavailable(retryAfter: configuration.retryAfterSeconds)
    }
}
