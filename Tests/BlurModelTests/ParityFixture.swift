import Foundation

/// `Fixtures/parity.json` (models/blur/reference.py's `write_fixtures`): tiles with PyTorch's
/// logits, and a plane with the reference pipeline's photo probability and evaluated tiles.
struct ParityFixture: Decodable {
    /// One tile and its logit.
    struct Tile: Decodable {
        /// What the tile shows.
        let name: String
        /// Base64 of the tile's samples, row after row.
        let pixels: String
        /// The logit PyTorch computed.
        let logit: Double
    }

    /// One tile the reference pipeline evaluated.
    struct EvaluatedTile: Decodable {
        /// Left edge.
        let x: Int
        /// Top edge.
        let y: Int
        /// Detail score.
        let detail: Int
        /// Logit.
        let logit: Double
        /// Probability.
        let probability: Double
    }

    /// The plane and the reference pipeline's answer.
    struct Plane: Decodable {
        /// What the plane is.
        let name: String
        /// Width.
        let width: Int
        /// Height.
        let height: Int
        /// Base64 of an 8-bit grey PNG.
        let png: String
        /// The photo's probability.
        let probability: Double
        /// The evaluated tiles, row-major.
        let tiles: [EvaluatedTile]
    }

    /// The model version the fixtures were made with.
    let modelVersion: String
    /// The SHA-256 of the model JSON the fixtures were made with.
    let modelSha256: String
    /// The tile side.
    let tileSize: Int
    /// "pytorch" or "numpy".
    let logitsFrom: String
    /// Tiles with logits.
    let tiles: [Tile]
    /// The plane.
    let plane: Plane

    private enum CodingKeys: String, CodingKey {
        case tiles, plane
        case modelVersion = "model_version"
        case modelSha256 = "model_sha256"
        case tileSize = "tile_size"
        case logitsFrom = "logits_from"
    }

    /// The committed fixture, beside this file.
    static func load() throws -> ParityFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/parity.json")
        return try JSONDecoder().decode(ParityFixture.self, from: Data(contentsOf: url))
    }
}
