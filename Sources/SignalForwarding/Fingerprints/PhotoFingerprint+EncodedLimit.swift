import LumaAnalysis

extension PhotoFingerprint {
    // TEMPORARY until the fingerprint's own bound lands in LumaAnalysis.
    /// The most base64 characters a stored fingerprint may have.
    public static let maximumEncodedBytes = 4 << 20
}
