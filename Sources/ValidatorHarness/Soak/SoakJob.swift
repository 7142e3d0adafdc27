import Foundation
import TestFixtures

/// One logical request of a soak (retried after a 503 as a client honouring Retry-After would).
struct SoakJob: Sendable {
    /// How the body goes out.
    enum Style: Sendable {
        /// Whole, on a keep-alive connection.
        case normal
        /// The whole body in twenty pieces over the trickle time.
        case trickle
        /// Half the body, then nothing (a 408 is expected).
        case stall
        /// A declared Content-Length over the limit and no body (a 413 before any byte).
        case declared
        /// Chunks of a mebibyte until past the limit (413).
        case chunked
    }

    /// The kinds and their weights in the mix.
    static let kinds: [(String, Double)] = [
        ("upload-photo", 44), ("validate-photo", 16), ("hostile-upload", 8), ("hostile-validate", 8),
        ("oversized-declared", 4), ("oversized-chunked", 1), ("slow-upload", 4), ("stalled-upload", 0.7),
        ("bad-form", 3), ("metrics", 2),
    ]

    let kind: String
    let method: String
    let path: String
    var headers: [String] = []
    var body: [UInt8] = []
    var expect = 200
    var style = Style.normal
    /// The project of a gateway upload (whose passed answer promises a signal).
    var upload: String?
    var label = ""

    /// The statuses a kind may get when nothing deliberate is in the way. An oversized chunked
    /// body is 413 once it passes the limit, or 408 when the request timeout comes first: on a
    /// loaded machine its 21 MiB take 8 to 12 s to arrive (measured in smoke runs), and the
    /// request timeout is 10 s; either refusal is right.
    static func expectedStatuses(_ kind: String) -> Set<Int> {
        ["oversized-declared": [413], "oversized-chunked": [413, 408], "stalled-upload": [408], "bad-form": [422]][kind] ?? [200]
    }

    /// A random job of a random kind (by weight).
    static func random(corpus: SoakCorpus, projects: [String], using generator: inout SplitMix64) -> SoakJob {
        let total = kinds.reduce(0) { $0 + $1.1 }
        var pick = Double.random(in: 0..<total, using: &generator)
        let kind = kinds.first { pick -= $0.1; return pick < 0 }?.0 ?? "metrics"
        return make(kind, corpus: corpus, projects: projects, using: &generator)
    }

    /// A job of `kind`.
    static func make(_ kind: String, corpus: SoakCorpus, projects: [String], using g: inout SplitMix64) -> SoakJob {
        let project = projects.randomElement(using: &g)!
        let uploadPath = "/api/v1/projects/\(project)/photos"
        let photoType = Double.random(in: 0..<1, using: &g) < 0.6 ? "room" : "inspiration"
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &g) < p }
        switch kind {
        case "upload-photo", "hostile-upload", "slow-upload", "stalled-upload":
            let pool = ["slow-upload", "stalled-upload"].contains(kind) ? corpus.small
                : kind == "hostile-upload" ? (corpus.hostile.isEmpty ? corpus.photos : corpus.hostile) : corpus.photos
            let file = pool.randomElement(using: &g)!
            var fields = [("photo_type", photoType)]
            if photoType == "inspiration", chance(0.3) { fields.append(("note", "love the light in this one")) }
            if chance(0.2) { fields.append(("storage_key", "soak/\(UUID().uuidString.lowercased()).jpg")) }
            let form = MultipartBody(fields: fields, file: (file.name, file.contentType, file.bytes))
            let style: Style = kind == "slow-upload" ? .trickle : kind == "stalled-upload" ? .stall : .normal
            return SoakJob(kind: kind, method: "POST", path: uploadPath, headers: ["Content-Type: \(form.contentType)"], body: form.bytes,
                           expect: style == .stall ? 408 : 200, style: style, upload: project, label: file.name)
        case "validate-photo", "hostile-validate":
            let pool = kind == "hostile-validate" && !corpus.hostile.isEmpty ? corpus.hostile : corpus.photos
            let file = pool.randomElement(using: &g)!
            if chance(0.5) {
                let type = chance(0.8) ? file.contentType : "application/octet-stream"
                return SoakJob(kind: kind, method: "POST", path: "/v1/validate?photo_type=\(photoType)", headers: ["Content-Type: \(type)"],
                               body: file.bytes, label: file.name)
            }
            let form = MultipartBody(fields: [("photo_type", photoType)], file: (file.name, file.contentType, file.bytes))
            return SoakJob(kind: kind, method: "POST", path: "/v1/validate", headers: ["Content-Type: \(form.contentType)"], body: form.bytes, label: file.name)
        case "oversized-declared":
            let toUpload = chance(0.5)
            return SoakJob(kind: kind, method: "POST", path: toUpload ? uploadPath : "/v1/validate?photo_type=room",
                           headers: ["Content-Type: \(toUpload ? "multipart/form-data; boundary=x" : "image/jpeg")"], expect: 413, style: .declared)
        case "oversized-chunked":
            return SoakJob(kind: kind, method: "POST", path: "/v1/validate?photo_type=room", headers: ["Content-Type: image/jpeg"], expect: 413, style: .chunked)
        case "bad-form":
            let file = corpus.small.randomElement(using: &g)!
            let choice = Int.random(in: 0..<3, using: &g)
            let form = switch choice {
            case 0: MultipartBody(fields: [("photo_type", "room"), ("note", "hi")], file: (file.name, file.contentType, file.bytes))
            case 1: MultipartBody(fields: [("photo_type", "inspiration"), ("note", String(repeating: "x", count: 201))], file: (file.name, file.contentType, file.bytes))
            default: MultipartBody(fields: [("photo_type", "room")], file: nil)
            }
            return SoakJob(kind: kind, method: "POST", path: uploadPath, headers: ["Content-Type: \(form.contentType)"], body: form.bytes,
                           expect: 422, label: ["note-on-room", "note-too-long", "no-file"][choice])
        default:
            return SoakJob(kind: "metrics", method: "GET", path: "/metrics")
        }
    }
}
