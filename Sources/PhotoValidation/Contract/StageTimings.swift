/// Milliseconds spent in each stage of one validation.
public struct StageTimings: Sendable, Codable, Equatable {
    /// Reading the header (format, size, orientation).
    public var header: Double = 0
    /// Decoding pixels in libvips (including shrink-on-load).
    public var decode: Double = 0
    /// Grey conversion and resampling to the analysis scale.
    public var luma: Double = 0
    /// The Laplacian variance.
    public var blur: Double = 0
    /// The exposure figures, on the analysis plane.
    public var exposure: Double = 0
    /// The duplicate fingerprint (global hashes and local features), on the analysis plane.
    public var fingerprint: Double = 0
    /// Making the preview JPEG for the content check, when it ran.
    public var contentPreview: Double?
    /// The content check (cache, queue, provider calls and retries), when it ran.
    public var content: Double?
    /// Everything, end to end.
    public var total: Double = 0

    /// Creates zero timings.
    public init() {}

    /// Every stage that ran, by its name in the JSON (`header`, `decode`, `luma`, `blur`, `exposure`, `fingerprint`, then
    /// `content_preview` and `content` when they ran, and `total`): the one list that details,
    /// metrics, logs and `bench` all use.
    public var stages: [(name: String, milliseconds: Double)] {
        var stages: [(name: String, milliseconds: Double)] = [
            (CodingKeys.header.stringValue, header), (CodingKeys.decode.stringValue, decode),
            (CodingKeys.luma.stringValue, luma), (CodingKeys.blur.stringValue, blur),
            (CodingKeys.exposure.stringValue, exposure), (CodingKeys.fingerprint.stringValue, fingerprint),
        ]
        if let contentPreview { stages.append((CodingKeys.contentPreview.stringValue, contentPreview)) }
        if let content { stages.append((CodingKeys.content.stringValue, content)) }
        stages.append((CodingKeys.total.stringValue, total))
        return stages
    }

    enum CodingKeys: String, CodingKey {
        case header, decode, luma, blur, exposure, fingerprint
        case contentPreview = "content_preview"
        case content, total
    }
}
