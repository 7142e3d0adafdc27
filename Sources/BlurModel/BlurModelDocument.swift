import Foundation

/// The model JSON as the training script writes it (models/blur/SPEC.md, "JSON keys"); `training`
/// is free-form and not read.
struct BlurModelDocument: Decodable {
    /// Always "photo-validator-blur-model".
    var format: String
    /// The model's version.
    var version: String
    /// The training seed.
    var seed: Int?
    /// The tile side T.
    var tileSize: Int
    /// The smallest standard deviation a tile is divided by.
    var stdFloor: Double
    /// How many tiles, by detail score, are evaluated.
    var maxTiles: Int
    /// How many of the sharpest tiles the photo's probability averages.
    var poolSharpest: Int
    /// The default threshold for rooms.
    var thresholdRoom: Double
    /// The default threshold for inspiration photos.
    var thresholdInspiration: Double
    /// The network, first layer first.
    var layers: [BlurModelLayerDocument]

    private enum CodingKeys: String, CodingKey {
        case format, version, seed, layers
        case tileSize = "tile_size"
        case stdFloor = "std_floor"
        case maxTiles = "max_tiles"
        case poolSharpest = "pool_sharpest"
        case thresholdRoom = "threshold_room"
        case thresholdInspiration = "threshold_inspiration"
    }

    /// The version string, also when the JSON writes it as a number.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        if let text = try? container.decode(String.self, forKey: .version) {
            version = text
        } else {
            version = String(try container.decode(Double.self, forKey: .version))
        }
        seed = try container.decodeIfPresent(Int.self, forKey: .seed)
        tileSize = try container.decode(Int.self, forKey: .tileSize)
        stdFloor = try container.decode(Double.self, forKey: .stdFloor)
        maxTiles = try container.decode(Int.self, forKey: .maxTiles)
        poolSharpest = try container.decode(Int.self, forKey: .poolSharpest)
        thresholdRoom = try container.decode(Double.self, forKey: .thresholdRoom)
        thresholdInspiration = try container.decode(Double.self, forKey: .thresholdInspiration)
        layers = try container.decode([BlurModelLayerDocument].self, forKey: .layers)
    }
}
