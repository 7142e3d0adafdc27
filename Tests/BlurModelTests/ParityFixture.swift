import Foundation

/// `Fixtures/parity.json` (models/blur/export.py, or reference.py's `fixtures`): tiles with
/// PyTorch's logits, and a plane with the Python pipeline's photo probability and evaluated tiles.
struct ParityFixture: Decodable {
    /// One tile and its logit.
    struct Tile: Decodable {
        /// Base64 of the tile's samples, row after row.
        let pixels: String
        /// The logit PyTorch computed.
        let logit: Double
        /// What the tile shows.
        let note: String?
    }

    /// One tile the reference pipeline evaluated.
    struct EvaluatedTile: Decodable {
        /// Left edge.
        let x: Int
        /// Top edge.
        let y: Int
        /// Probability.
        let probability: Double
    }

    /// The plane and the reference pipeline's answer.
    struct Plane: Decodable {
        /// Base64 of an 8-bit grey PNG.
        let png: String
        /// Width.
        let width: Int
        /// Height.
        let height: Int
        /// The photo's probability.
        let probability: Double
        /// The evaluated tiles, in selection order.
        let evaluated: [EvaluatedTile]
        /// What the plane is.
        let note: String?
    }

    /// The model version the fixtures were made with.
    let modelVersion: String
    /// The SHA-256 of the model JSON the fixtures were made with.
    let modelSha256: String
    /// The tile side.
    let tileSize: Int
    /// Tiles with logits.
    let tiles: [Tile]
    /// The plane.
    let plane: Plane

    private enum CodingKeys: String, CodingKey {
        case tiles, plane
        case modelVersion = "model_version"
        case modelSha256 = "model_sha256"
        case tileSize = "tile_size"
    }

    /// The committed fixture, beside this file.
    static func load() throws -> ParityFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/parity.json")
        return try JSONDecoder().decode(ParityFixture.self, from: Data(contentsOf: url))
    }
}
