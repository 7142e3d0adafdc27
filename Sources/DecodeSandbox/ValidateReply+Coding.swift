import PhotoValidation

extension ValidateReply {
    private enum CodingKeys: String, CodingKey {
        case output, retiring, previewWidth, previewHeight, previewFailure, measurements
    }

    /// Writes the reply with each decode's fingerprint in `measurements` left empty where it is
    /// the answer's own: a fingerprint is about 50 KB of base64, and a photo decoded twice would
    /// otherwise carry it three times.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encodeIfPresent(retiring, forKey: .retiring)
        try container.encodeIfPresent(previewWidth, forKey: .previewWidth)
        try container.encodeIfPresent(previewHeight, forKey: .previewHeight)
        try container.encodeIfPresent(previewFailure, forKey: .previewFailure)
        try container.encodeIfPresent(measurements.map { Self.fingerprints(of: $0, replacing: output.details.fingerprint, with: "") }, forKey: .measurements)
    }

    /// Reads a reply `encode(to:)` wrote, giving each decode's figures the answer's fingerprint
    /// back where it was left empty.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        output = try container.decode(ValidatePhotoOutput.self, forKey: .output)
        retiring = try container.decodeIfPresent(Bool.self, forKey: .retiring)
        previewWidth = try container.decodeIfPresent(Int.self, forKey: .previewWidth)
        previewHeight = try container.decodeIfPresent(Int.self, forKey: .previewHeight)
        previewFailure = try container.decodeIfPresent(Failure.self, forKey: .previewFailure)
        let sent = try container.decodeIfPresent(PhotoMeasurements.self, forKey: .measurements)
        measurements = sent.map { sent in
            output.details.fingerprint.map { Self.fingerprints(of: sent, replacing: "", with: $0) } ?? sent
        }
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
