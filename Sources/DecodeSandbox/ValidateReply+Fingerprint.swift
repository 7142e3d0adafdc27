import PhotoValidation

extension ValidateReply {
    /// The reply as the worker sends it: each decode's fingerprint in `measurements` left empty
    /// where it is the answer's own. A fingerprint is up to 10 KB of base64, and a photo decoded
    /// twice would otherwise carry it three times.
    package func sendingFingerprintOnce() -> ValidateReply {
        var sent = self
        sent.measurements = measurements.map { Self.fingerprints(of: $0, replacing: output.details.fingerprint, with: "") }
        return sent
    }

    /// The reply as the worker measured it, from one it sent (`sendingFingerprintOnce()`): each
    /// decode's figures get the answer's fingerprint back where it was left empty.
    package func withFingerprintRestored() -> ValidateReply {
        guard let fingerprint = output.details.fingerprint else { return self }
        var restored = self
        restored.measurements = measurements.map { Self.fingerprints(of: $0, replacing: "", with: fingerprint) }
        return restored
    }

    /// `measurements` with every decode's fingerprint that equals `old` set to `new` (nothing
    /// changes when `old` is nil: the answer carries no fingerprint).
    private static func fingerprints(of measurements: PhotoMeasurements, replacing old: String?, with new: String) -> PhotoMeasurements {
        guard let old else { return measurements }
        var changed = measurements
        if changed.first?.fingerprint == old { changed.first?.fingerprint = new }
        if changed.second?.fingerprint == old { changed.second?.fingerprint = new }
        return changed
    }
}
