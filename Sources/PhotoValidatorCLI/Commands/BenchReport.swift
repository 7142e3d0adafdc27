import BlurMetrics
import PhotoValidation

/// The JSON printed by `photo-validator bench`.
struct BenchReport: Encodable {
    /// Median and 90th percentile of one stage, in milliseconds.
    struct Figures: Encodable {
        let median: Double
        let p90: Double

        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            median = sorted.isEmpty ? 0 : Percentile.linear(sorted, 50)
            p90 = sorted.isEmpty ? 0 : Percentile.linear(sorted, 90)
        }
    }

    /// The figures for one photo.
    struct Photo: Encodable {
        let path: String
        let bytes: Int
        let format: String?
        let width: Int?
        let height: Int?
        let analysisWidth: Int?
        let analysisHeight: Int?
        let decodeScale: Double?
        let laplacianVariance: Double?
        let passed: Bool
        let failures: [FailureCode]
        /// Who decodes the pixels at this analysis size (libjpeg, ffmpeg-hevc, libvips).
        let decoder: String?
        var stagesMs: [String: Figures]

        init(path: String, bytes: Int, output: ValidatePhotoOutput, runs: [StageTimings], decoder: String?) {
            self.path = path
            self.decoder = decoder
            self.bytes = bytes
            format = output.details.format
            width = output.details.width
            height = output.details.height
            analysisWidth = output.details.analysisWidth
            analysisHeight = output.details.analysisHeight
            decodeScale = output.details.decodeScale
            laplacianVariance = output.details.laplacianVariance
            passed = output.passed
            failures = output.failures
            let samples = Dictionary(grouping: runs.flatMap(\.stages), by: \.name).mapValues { $0.map(\.milliseconds) }
            stagesMs = samples.mapValues(Figures.init)
        }

        enum CodingKeys: String, CodingKey {
            case path, bytes, format, width, height, passed, failures, decoder
            case analysisWidth = "analysis_width"
            case analysisHeight = "analysis_height"
            case decodeScale = "decode_scale"
            case laplacianVariance = "laplacian_variance"
            case stagesMs = "stages_ms"
        }
    }

    let libvips: String
    let analysisSize: String
    let iterations: Int
    let photos: [Photo]

    enum CodingKeys: String, CodingKey {
        case libvips, iterations, photos
        case analysisSize = "analysis_size"
    }
}
