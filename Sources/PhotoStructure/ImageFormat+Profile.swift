import PhotoFormat

extension ImageFormat {
    /// The format's profile: its signature, declared size, cost caps, time, least memory, extensions and preview path.
    public var profile: ImageFormatProfile {
        // `all` holds one profile per case (ImageFormatProfileTests).
        ImageFormatProfile.all.first { $0.format == self }!
    }
}
