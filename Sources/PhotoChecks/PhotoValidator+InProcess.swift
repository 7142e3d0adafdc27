import PhotoFormat
import PhotoValidation

extension PhotoValidator {
    /// A validator that decodes in this process (`InProcessChecks`): what a decode worker, a
    /// library user and `decode_isolation = none` get. Starts libvips when it is not running yet.
    ///
    /// - Throws: `DecodeFailure` when libvips cannot be initialised.
    public init(settings: ValidationSettings) throws(DecodeFailure) {
        self.init(settings: settings, decoding: try InProcessChecks(settings: settings))
    }
}
