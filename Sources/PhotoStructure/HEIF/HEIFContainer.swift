/// What a decode of a HEIC photo's primary image needs from the file's `meta` box: the tiles'
/// coded data, the grid they form, their decoder configurations, the crop, turns and mirrors, and
/// the colour description.
///
/// Read in Swift, with every offset checked, before any C library sees the bytes: the HEVC
/// bitstream alone goes to FFmpeg, and only after every sequence parameter set has been read here
/// and found to declare the size the container gives. No HEIC reaches libheif. A file this reader
/// refuses is refused: `malformed` when it contradicts itself (reference cycles, missing items,
/// more tiles than cells, a bitstream larger than its `ispe`), `unsupported` when it uses a
/// construct no phone or camera writes (overlays, protected items, data in other files).
package struct HEIFContainer: Equatable {
    /// Why a file is refused.
    package struct Unsupported: Error, Equatable {
        /// Whether the file lies about itself or only uses a construct this reader does not read.
        package enum Kind: Equatable {
            /// The container or bitstream contradicts itself or is cut short.
            case malformed
            /// A construct this reader does not take.
            case unsupported
            /// Within the format, but past a cost cap (`DecodeCostCaps`): no real photo is built so.
            case costly
        }

        /// What this reader found.
        package let reason: String
        /// Which kind of refusal.
        package let kind: Kind

        package init(_ reason: String, kind: Kind = .malformed) {
            self.reason = reason
            self.kind = kind
        }
    }

    /// The colour description of an `nclx` box.
    package struct Colour: Equatable {
        /// ITU-T H.273 matrix coefficients (1 BT.709, 5 and 6 BT.601, 9 BT.2020).
        package let matrix: Int
        /// True for full-range samples.
        package let fullRange: Bool
    }

    /// More tiles than this are left to libvips: a real 100 MP photo has a few hundred, while
    /// tiny tiles would make the per-tile overhead the cost.
    package static let maximumTiles = 4096

    /// More extents than this for one item are refused: a camera writes one per item.
    package static let maximumExtents = 64

    /// The largest tile side accepted: above HEVC's largest picture (level 6.2 allows about
    /// 8,444 x 4,222 luma samples, or 16,888 on a side for a narrow picture).
    package static let maximumTileSide = 16_888

    /// Width of the picture the tiles form (cropped to the grid's output size), before any `clap`,
    /// `irot` or `imir`.
    package let width: Int
    /// Height of the picture the tiles form, before any `clap`, `irot` or `imir`.
    package let height: Int
    /// Tiles per row.
    package let columns: Int
    /// Rows of tiles.
    package let rows: Int
    /// Every tile's width as declared (`ispe`); each tile must decode to exactly this.
    package let tileWidth: Int
    /// Every tile's height as declared.
    package let tileHeight: Int
    /// Each tile's coded data, row by row: the byte ranges of its extents in the file.
    package let tiles: [[Range<Int>]]
    /// Each tile's `hvcC` payload (FFmpeg's decoder configuration), row by row.
    package let configurations: [Range<Int>]
    /// The crop, turns and mirrors from the assembled picture to the displayed one.
    package let transform: PixelTransform
    /// The file's `nclx` colour description; nil leaves it to the bitstream, as libheif does.
    package var colour: Colour?
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4, as the sequence parameter sets declare.
    package var chromaFormat = 1

    /// The displayed width, after crop and rotation.
    package var displayedWidth: Int { transform.width }
    /// The displayed height, after crop and rotation.
    package var displayedHeight: Int { transform.height }
    /// The largest tile's coded size in bytes.
    package var largestTileBytes: Int { tiles.map { $0.reduce(0) { $0 + $1.count } }.max() ?? 0 }

    /// A property of an item: its box type and payload, and whether the file marks it essential.
    private struct Property {
        let type: String
        let payload: Range<Int>
        let essential: Bool
        let index: Int
    }

    /// Properties a reader must understand when marked essential; unknown essential ones make the
    /// file unsupported, unknown inessential ones are ignored (as the HEIF standard says).
    private static let understood: Set<String> = ["hvcC", "ispe", "colr", "pixi", "irot", "imir", "clap"]

    /// Reads the container of `bytes`, a file already sniffed as HEIF.
    package static func read(_ bytes: UnsafeRawBufferPointer, caps: DecodeCostCaps = DecodeCostCaps()) throws(Unsupported) -> HEIFContainer {
        var parser = Parser(bytes: bytes, caps: caps)
        return try parser.container()
    }

    /// The parse itself: the boxes of `meta` gathered into tables, then the primary item resolved.
    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        /// The caps on NAL units and coded bytes per tile.
        let caps: DecodeCostCaps
        var primary: Int?
        var itemTypes: [Int: String] = [:]
        var protectedItems: Set<Int> = []
        var locations: [Int: (method: Int, extents: [(offset: Int, length: Int)])] = [:]
        var derivations: [Int: [Int]] = [:]
        /// Items that the file marks as a thumbnail or auxiliary image of another (`thmb`, `auxl`).
        var describes: [Int: Int] = [:]
        var properties: [(type: String, payload: Range<Int>)] = []
        var associations: [Int: [(index: Int, essential: Bool)]] = [:]
        var itemData: Range<Int>?

        /// Boxes that may appear once in `meta` (and `ipco`/`ipma` once in `iprp`).
        static let singular: Set<String> = ["hdlr", "pitm", "iinf", "iloc", "iref", "iprp", "idat", "ipco", "ipma"]

        init(bytes: UnsafeRawBufferPointer, caps: DecodeCostCaps) {
            self.bytes = bytes
            self.caps = caps
        }

        mutating func container() throws(Unsupported) -> HEIFContainer {
            guard var top = HEIFByteReader(bytes, 0..<bytes.count) else { throw Unsupported("the file is empty") }
            var meta: Range<Int>?
            while top.remaining > 0 {
                guard let box = top.box() else { throw Unsupported("a top-level box runs past the end of the file") }
                if box.type == "meta" {
                    // Readers differ on which of two meta boxes counts: such a file is not read here.
                    guard meta == nil else { throw Unsupported("the file has more than one meta box") }
                    meta = box.payload
                }
            }
            guard let meta, var reader = HEIFByteReader(bytes, meta), reader.versionAndFlags() != nil else {
                throw Unsupported("no meta box")
            }
            var seen: Set<String> = []
            while reader.remaining > 0 {
                guard let box = reader.box() else { throw Unsupported("a box in meta runs past its end") }
                // A repeated box (two pitm, two iloc...) is read differently by different readers.
                guard seen.insert(box.type).inserted || !Self.singular.contains(box.type) else {
                    throw Unsupported("the meta box has more than one \(box.type)")
                }
                try readMetaChild(box.type, box.payload)
            }
            return try resolvePrimary()
        }

        private mutating func readMetaChild(_ type: String, _ payload: Range<Int>) throws(Unsupported) {
            guard var reader = HEIFByteReader(bytes, payload) else { throw Unsupported("a \(type) box lies outside the file") }
            switch type {
            case "hdlr":
                guard reader.versionAndFlags() != nil, reader.skip(4), let handler = reader.fourCC() else {
                    throw Unsupported("the hdlr box is short")
                }
                guard handler == "pict" else { throw Unsupported("the meta handler is \(handler), not pict", kind: .unsupported) }
            case "pitm":
                guard let (version, _) = reader.versionAndFlags(), version <= 1, let id = reader.uint(version == 0 ? 2 : 4) else {
                    throw Unsupported("the pitm box is short or of an unknown version")
                }
                primary = id
            case "iinf":
                try readItemInfo(&reader)
            case "iloc":
                try readLocations(&reader)
            case "iref":
                try readReferences(&reader)
            case "iprp":
                try readProperties(&reader)
            case "idat":
                itemData = payload
            default:
                break
            }
        }

        private mutating func readItemInfo(_ reader: inout HEIFByteReader) throws(Unsupported) {
            guard let (version, _) = reader.versionAndFlags(), let count = reader.uint(version == 0 ? 2 : 4) else {
                throw Unsupported("the iinf box is short")
            }
            for _ in 0..<count {
                guard let entry = reader.box(), entry.type == "infe", var infe = HEIFByteReader(bytes, entry.payload),
                      let (version, _) = infe.versionAndFlags() else {
                    throw Unsupported("an item info entry is unreadable")
                }
                guard version == 2 || version == 3 else { throw Unsupported("item info entries of version \(version)") }
                guard let id = infe.uint(version == 2 ? 2 : 4), let protection = infe.uint16(), let type = infe.fourCC() else {
                    throw Unsupported("an item info entry is short")
                }
                guard itemTypes.updateValue(type, forKey: id) == nil else { throw Unsupported("item \(id) is described twice") }
                if protection != 0 {
                    protectedItems.insert(id)
                }
            }
        }

        private mutating func readLocations(_ reader: inout HEIFByteReader) throws(Unsupported) {
            guard let (version, _) = reader.versionAndFlags(), version <= 2,
                  let sizes = reader.uint16() else {
                throw Unsupported("the iloc box is short or of an unknown version")
            }
            let offsetSize = sizes >> 12, lengthSize = (sizes >> 8) & 0xF, baseOffsetSize = (sizes >> 4) & 0xF
            let indexSize = version == 0 ? 0 : sizes & 0xF
            guard let count = reader.uint(version < 2 ? 2 : 4) else { throw Unsupported("the iloc box is short") }
            for _ in 0..<count {
                guard let id = reader.uint(version < 2 ? 2 : 4) else { throw Unsupported("the iloc box is short") }
                var method = 0
                if version >= 1 {
                    guard let field = reader.uint16() else { throw Unsupported("the iloc box is short") }
                    method = field & 0xF
                }
                guard let dataReference = reader.uint16(), let base = reader.uint(baseOffsetSize),
                      let extentCount = reader.uint16() else {
                    throw Unsupported("the iloc box is short")
                }
                // Extents of zero bytes each would let a few bytes stand for 65,535 of them; and
                // thousands of tiny extents make every read of the item a walk (cameras write one).
                guard indexSize + offsetSize + lengthSize > 0 || extentCount <= 1 else {
                    throw Unsupported("the iloc box declares many extents of no size")
                }
                guard extentCount <= HEIFContainer.maximumExtents else {
                    throw Unsupported("item \(id) is split into \(extentCount) extents, more than \(HEIFContainer.maximumExtents)")
                }
                var extents: [(offset: Int, length: Int)] = []
                for _ in 0..<extentCount {
                    guard reader.uint(indexSize) != nil, let offset = reader.uint(offsetSize), let length = reader.uint(lengthSize) else {
                        throw Unsupported("the iloc box is short")
                    }
                    let (sum, overflow) = base.addingReportingOverflow(offset)
                    guard !overflow else { throw Unsupported("an item extent's offset overflows") }
                    extents.append((sum, length))
                }
                // Data in other files (a data reference) is never followed.
                guard locations.updateValue((dataReference == 0 ? method : -2, extents), forKey: id) == nil else {
                    throw Unsupported("item \(id) is located twice")
                }
            }
        }

        private mutating func readReferences(_ reader: inout HEIFByteReader) throws(Unsupported) {
            guard let (version, _) = reader.versionAndFlags(), version <= 1 else { throw Unsupported("the iref box is short or of an unknown version") }
            let idSize = version == 0 ? 2 : 4
            while reader.remaining > 0 {
                guard let box = reader.box(), var entry = HEIFByteReader(bytes, box.payload),
                      let from = entry.uint(idSize), let count = entry.uint16() else {
                    throw Unsupported("an item reference is unreadable")
                }
                guard ["dimg", "thmb", "auxl"].contains(box.type) else { continue }
                var targets: [Int] = []
                for _ in 0..<count {
                    guard let to = entry.uint(idSize) else { throw Unsupported("an item reference is short") }
                    targets.append(to)
                }
                guard box.type == "dimg" else {
                    if let first = targets.first { describes[from] = first }
                    continue
                }
                guard derivations.updateValue(targets, forKey: from) == nil else { throw Unsupported("item \(from) is derived twice") }
            }
        }

        private mutating func readProperties(_ reader: inout HEIFByteReader) throws(Unsupported) {
            var seen: Set<String> = []
            while reader.remaining > 0 {
                guard let box = reader.box(), var inner = HEIFByteReader(bytes, box.payload) else {
                    throw Unsupported("a box in iprp runs past its end")
                }
                guard seen.insert(box.type).inserted else { throw Unsupported("the iprp box has more than one \(box.type)") }
                if box.type == "ipco" {
                    while inner.remaining > 0 {
                        guard let property = inner.box() else { throw Unsupported("a property runs past the end of ipco") }
                        properties.append(property)
                    }
                } else if box.type == "ipma" {
                    guard let (version, flags) = inner.versionAndFlags(), version <= 1, let count = inner.uint32() else {
                        throw Unsupported("the ipma box is short or of an unknown version")
                    }
                    let wide = flags & 1 != 0
                    for _ in 0..<count {
                        guard let id = inner.uint(version < 1 ? 2 : 4), let associationCount = inner.uint8() else {
                            throw Unsupported("the ipma box is short")
                        }
                        var list: [(index: Int, essential: Bool)] = []
                        for _ in 0..<associationCount {
                            guard let value = inner.uint(wide ? 2 : 1) else { throw Unsupported("the ipma box is short") }
                            let bits = wide ? 15 : 7
                            list.append((value & (1 << bits - 1), value >> bits != 0))
                        }
                        guard associations.updateValue(list, forKey: id) == nil else { throw Unsupported("item \(id) has properties twice") }
                    }
                }
            }
        }

        private func propertiesOf(_ id: Int) throws(Unsupported) -> [Property] {
            var result: [Property] = []
            for (index, essential) in associations[id] ?? [] where index != 0 {
                guard index <= properties.count else { throw Unsupported("item \(id) names property \(index) of \(properties.count)") }
                let property = properties[index - 1]
                if essential && !understood.contains(property.type) {
                    throw Unsupported("item \(id) has an essential \(property.type) property, which this reader does not know", kind: .unsupported)
                }
                result.append(Property(type: property.type, payload: property.payload, essential: essential, index: index))
            }
            return result
        }

        /// The width and height an item's `ispe` declares.
        private func spatialExtent(_ id: Int, _ itemProperties: [Property]) throws(Unsupported) -> (width: Int, height: Int) {
            guard let ispe = itemProperties.first(where: { $0.type == "ispe" }), var reader = HEIFByteReader(bytes, ispe.payload),
                  reader.versionAndFlags() != nil, let width = reader.uint32(), let height = reader.uint32(), width > 0, height > 0 else {
                throw Unsupported("item \(id) declares no size")
            }
            return (width, height)
        }

        /// The item's `nclx` colour description, if it has one.
        private func colour(_ id: Int, _ itemProperties: [Property]) throws(Unsupported) -> Colour? {
            var found: Colour?
            for colour in itemProperties where colour.type == "colr" {
                guard var reader = HEIFByteReader(bytes, colour.payload), let kind = reader.fourCC() else {
                    throw Unsupported("item \(id) has a short colr property")
                }
                guard kind == "nclx" else { continue }
                guard reader.skip(4), let matrix = reader.uint16(), let range = reader.uint8() else {
                    throw Unsupported("item \(id) has a short nclx colour description")
                }
                found = Colour(matrix: matrix, fullRange: range & 0x80 != 0)
            }
            return found
        }

        /// The byte ranges of an item's data, checked to lie inside the file.
        private func dataRanges(_ id: Int) throws(Unsupported) -> [Range<Int>] {
            guard let location = locations[id], !location.extents.isEmpty else { throw Unsupported("item \(id) has no data") }
            let container: Range<Int>
            switch location.method {
            case 0: container = 0..<bytes.count
            case 1:
                guard let itemData else { throw Unsupported("item \(id) lies in a missing idat box") }
                container = itemData
            default: throw Unsupported("item \(id)'s data is constructed in a way this reader does not follow", kind: .unsupported)
            }
            var ranges: [Range<Int>] = []
            var total = 0
            for extent in location.extents {
                let (start, overflow) = container.lowerBound.addingReportingOverflow(extent.offset)
                guard !overflow, extent.length > 0, start <= container.upperBound, extent.length <= container.upperBound - start else {
                    throw Unsupported("item \(id)'s data lies outside the file (truncated?)")
                }
                ranges.append(start..<(start + extent.length))
                // Overlapping extents could add up to far more than the file: no real item does.
                total += extent.length
                guard total <= bytes.count else { throw Unsupported("item \(id)'s extents add up to more than the file") }
            }
            return ranges
        }

        /// Checks a tile's NAL units (with 4-byte lengths, as the hvcC must declare): exactly one
        /// coded picture, so the decode is never a guess between pictures; returns the sequence
        /// parameter sets it carries, to be checked against the container like the hvcC's.
        private func pictureUnits(_ extents: [Range<Int>], tile: Int) throws(Unsupported) -> [HEVCSequenceParameters] {
            // Only NAL headers are read, in place: the tile's extents read as one stream.
            let count = extents.reduce(0) { $0 + $1.count }
            func byte(_ offset: Int) -> UInt8 {
                var offset = offset
                for extent in extents {
                    if offset < extent.count { return bytes[extent.lowerBound + offset] }
                    offset -= extent.count
                }
                return 0
            }
            var offset = 0
            var pictures = 0
            var units = 0
            var sequences: [HEVCSequenceParameters] = []
            while offset < count {
                // FFmpeg keeps a record per NAL unit: a flood of filler units grew a worker past 480 MiB.
                units += 1
                guard units <= caps.heifUnitsPerTile else {
                    throw Unsupported("tile \(tile + 1) holds more than \(caps.heifUnitsPerTile) NAL units (a phone writes a few; decode.max_heif_units_per_tile)", kind: .costly)
                }
                guard count - offset >= 6 else { throw Unsupported("tile \(tile + 1)'s NAL units are cut short") }
                let length = Int(byte(offset)) << 24 | Int(byte(offset + 1)) << 16 | Int(byte(offset + 2)) << 8 | Int(byte(offset + 3))
                offset += 4
                guard length >= 2, length <= count - offset else { throw Unsupported("tile \(tile + 1) has a NAL unit of impossible length") }
                switch (byte(offset) >> 1) & 0x3F {
                case 33:
                    guard sequences.count < 16 else { throw Unsupported("tile \(tile + 1) carries more than 16 sequence parameter sets") }
                    let start = offset
                    guard let sequence = HEVCSequenceParameters.parse((0..<min(length, 400)).lazy.map { byte(start + $0) }) else {
                        throw Unsupported("tile \(tile + 1) carries a sequence parameter set that cannot be read")
                    }
                    sequences.append(sequence)
                case 0...31:
                    // A coded slice: the first bit after the 2-byte header starts a new picture.
                    if length >= 3, byte(offset + 2) & 0x80 != 0 { pictures += 1 }
                default:
                    break
                }
                offset += length
            }
            guard pictures == 1 else { throw Unsupported("tile \(tile + 1) holds \(pictures) coded pictures, not one") }
            return sequences
        }

        /// The sequence parameter sets in an `hvcC` payload (which must be version 1 with 4-byte
        /// NAL lengths, at least its 23-byte fixed part).
        private func configurationSequences(_ configuration: Range<Int>) throws(Unsupported) -> [HEVCSequenceParameters] {
            guard configuration.count >= 23, bytes[configuration.lowerBound] == 1, bytes[configuration.lowerBound + 21] & 3 == 3,
                  var reader = HEIFByteReader(bytes, configuration), reader.skip(22), let arrays = reader.uint8() else {
                throw Unsupported("the hvcC decoder configuration is not version 1 with 4-byte NAL lengths")
            }
            var sequences: [HEVCSequenceParameters] = []
            for _ in 0..<arrays {
                guard let type = reader.uint8(), let count = reader.uint16() else { throw Unsupported("the hvcC decoder configuration is cut short") }
                guard count <= 64 else { throw Unsupported("the hvcC lists \(count) parameter sets in one array") }
                for _ in 0..<count {
                    guard let length = reader.uint16(), length >= 2, reader.remaining >= length else {
                        throw Unsupported("the hvcC decoder configuration is cut short")
                    }
                    let start = reader.offset
                    _ = reader.skip(length)
                    // FFmpeg reads each NAL unit's own header, not the array's type byte: so does this.
                    guard (bytes[start] >> 1) & 0x3F == 33 else {
                        guard type & 0x3F != 33 else { throw Unsupported("the hvcC lists a NAL unit that is not a sequence parameter set among them") }
                        continue
                    }
                    guard sequences.count < 16, let sequence = HEVCSequenceParameters.parse(bytes[start..<(start + length)]) else {
                        throw Unsupported("the hvcC holds a sequence parameter set that cannot be read")
                    }
                    sequences.append(sequence)
                }
            }
            return sequences
        }

        /// The crop, turns and mirrors of the primary item, in the order the file associates them.
        private func transform(_ itemProperties: [Property], width: Int, height: Int) throws(Unsupported) -> PixelTransform {
            var transform = PixelTransform(width: width, height: height)
            for property in itemProperties {
                guard var reader = HEIFByteReader(bytes, property.payload) else { throw Unsupported("a \(property.type) property lies outside the file") }
                switch property.type {
                case "irot":
                    guard let angle = reader.uint8() else { throw Unsupported("the irot property is empty") }
                    for _ in 0..<(angle & 3) { transform.rotateAnticlockwise() }
                case "imir":
                    guard let axis = reader.uint8() else { throw Unsupported("the imir property is empty") }
                    // As libheif (and so every phone's HEIC tested against it) reads it: axis 0
                    // swaps top and bottom, axis 1 left and right.
                    transform.mirror(verticalAxis: axis & 1 == 1)
                case "clap":
                    try crop(&transform, &reader)
                default:
                    break
                }
            }
            return transform
        }

        /// Applies a `clap` clean aperture to the picture as it stands, rounding as libheif does.
        private func crop(_ transform: inout PixelTransform, _ reader: inout HEIFByteReader) throws(Unsupported) {
            var fields: [(Int, Int)] = []
            for index in 0..<4 {
                guard let numerator = reader.uint32(), let denominator = reader.uint32(), denominator > 0, denominator < 1 << 31 else {
                    throw Unsupported("the clap crop is short or divides by zero")
                }
                // The sizes are unsigned, the offsets signed.
                fields.append((index < 2 ? numerator : Int(Int32(truncatingIfNeeded: numerator)), denominator))
            }
            let (widthN, widthD) = fields[0], (heightN, heightD) = fields[1], (horizontalN, horizontalD) = fields[2], (verticalN, verticalD) = fields[3]
            // left = floor(offset + (size - 1) / 2 - (clean - 1) / 2), right = floor(offset + (size - 1) / 2 + (clean - 1) / 2), in doubles
            // of exact fractions (each term has a 32-bit numerator and denominator).
            func edges(offset: (Int, Int), clean: (Int, Int), size: Int) -> (Int, Int) {
                let centre = Double(offset.0) / Double(offset.1) + Double(size - 1) / 2
                let half = (Double(clean.0) / Double(clean.1) - 1) / 2
                return (Int((centre - half).rounded(.down)), Int((centre + half).rounded(.down)))
            }
            let (left, right) = edges(offset: (horizontalN, horizontalD), clean: (widthN, widthD), size: transform.width)
            let (top, bottom) = edges(offset: (verticalN, verticalD), clean: (heightN, heightD), size: transform.height)
            guard left >= 0, top >= 0, right < transform.width, bottom < transform.height, right >= left, bottom >= top else {
                throw Unsupported("the clap crop lies outside the \(transform.width)x\(transform.height) picture")
            }
            transform.crop(left: left, top: top, width: right - left + 1, height: bottom - top + 1)
        }

        private func resolvePrimary() throws(Unsupported) -> HEIFContainer {
            guard var primary else { throw Unsupported("the file names no primary item") }
            // A primary item that is itself a thumbnail or auxiliary image of another is not a
            // picture of its own: the picture it belongs to is shown, as libheif shows it.
            if let picture = describes[primary], picture != primary, itemTypes[picture] != nil, describes[picture] == nil {
                primary = picture
            }
            guard let type = itemTypes[primary] else { throw Unsupported("the primary item \(primary) is missing from the item list") }
            guard !protectedItems.contains(primary) else { throw Unsupported("the primary item is protected", kind: .unsupported) }
            let primaryProperties = try propertiesOf(primary)
            var colour = try self.colour(primary, primaryProperties)
            let (width, height) = try spatialExtent(primary, primaryProperties)
            // Far past any pixel limit; keeps the sums below exact.
            guard width <= 1 << 20, height <= 1 << 20 else { throw Unsupported("the image declares \(width)x\(height)") }
            let tileIDs: [Int]
            var columns = 1, rows = 1
            var outputWidth = width, outputHeight = height
            switch type {
            case "hvc1":
                tileIDs = [primary]
            case "grid":
                let descriptor = try dataRanges(primary)
                guard descriptor.count == 1, var reader = HEIFByteReader(bytes, descriptor[0]), let version = reader.uint8(),
                      version == 0, let flags = reader.uint8(), let rowsMinusOne = reader.uint8(), let columnsMinusOne = reader.uint8(),
                      let gridWidth = reader.uint(flags & 1 == 0 ? 2 : 4), let gridHeight = reader.uint(flags & 1 == 0 ? 2 : 4) else {
                    throw Unsupported("the grid descriptor is unreadable")
                }
                rows = rowsMinusOne + 1
                columns = columnsMinusOne + 1
                outputWidth = gridWidth
                outputHeight = gridHeight
                tileIDs = derivations[primary] ?? []
                for id in Set(tileIDs) {
                    guard id != primary else { throw Unsupported("the grid names itself as its own tile") }
                    guard let tileType = itemTypes[id] else { throw Unsupported("the grid names tile \(id), which the file does not have") }
                    guard tileType == "hvc1" else {
                        throw Unsupported("the grid's tile \(id) is a \(tileType), not an HEVC picture (nested or cyclic derivation)")
                    }
                }
                guard tileIDs.count == rows * columns else {
                    throw Unsupported("the grid has \(rows)x\(columns) cells but names \(tileIDs.count) tiles")
                }
                guard Set(tileIDs).count == tileIDs.count else { throw Unsupported("the grid names one tile for several cells") }
            default:
                throw Unsupported("the primary item is \(type), not an HEVC picture or grid", kind: .unsupported)
            }
            guard outputWidth == width, outputHeight == height else {
                throw Unsupported("the grid's output size \(outputWidth)x\(outputHeight) differs from its ispe \(width)x\(height)")
            }
            guard tileIDs.count <= HEIFContainer.maximumTiles else { throw Unsupported("more than \(HEIFContainer.maximumTiles) tiles") }
            let transform = try self.transform(primaryProperties, width: width, height: height)
            var tileSize: (width: Int, height: Int)?
            var configurations: [Range<Int>] = []
            var checkedConfigurations: Set<Int> = []
            var tiles: [[Range<Int>]] = []
            var chromaFormat: Int?
            var totalTileBytes = 0
            tiles.reserveCapacity(tileIDs.count)
            for id in tileIDs {
                guard !protectedItems.contains(id) else { throw Unsupported("tile \(id) is protected", kind: .unsupported) }
                let tileProperties = id == primary ? primaryProperties : try propertiesOf(id)
                if id != primary {
                    colour = try self.colour(id, tileProperties) ?? colour
                    guard !tileProperties.contains(where: { ["irot", "imir", "clap"].contains($0.type) }) else {
                        throw Unsupported("tile \(id) is turned, mirrored or cropped on its own")
                    }
                }
                let size = try spatialExtent(id, tileProperties)
                guard size.width <= HEIFContainer.maximumTileSide, size.height <= HEIFContainer.maximumTileSide else {
                    throw Unsupported("tile \(id) declares \(size.width)x\(size.height), larger than any HEVC picture")
                }
                guard tileSize == nil || tileSize! == size else { throw Unsupported("the tiles differ in size") }
                tileSize = size
                guard let hvcC = tileProperties.first(where: { $0.type == "hvcC" }) else { throw Unsupported("tile \(id) has no hvcC") }
                var sequences: [HEVCSequenceParameters] = []
                if checkedConfigurations.insert(hvcC.index).inserted {
                    sequences = try configurationSequences(hvcC.payload)
                }
                let data = try dataRanges(id)
                let coded = data.reduce(0) { $0 + $1.count }
                guard coded <= size.width * size.height * caps.heifBytesPerPixel + (64 << 10) else {
                    throw Unsupported(
                        "tile \(id) holds \(coded) bytes of coded data for \(size.width)x\(size.height) pixels, more than \(caps.heifBytesPerPixel) a pixel (decode.max_heif_bytes_per_pixel)",
                        kind: .costly
                    )
                }
                sequences += try pictureUnits(data, tile: tiles.count)
                for sequence in sequences {
                    // The decoder allocates for what the bitstream declares: it must be what the container says.
                    guard sequence.width == size.width, sequence.height == size.height else {
                        throw Unsupported(
                            "tile \(id)'s bitstream declares \(sequence.width)x\(sequence.height) pixels, its container \(size.width)x\(size.height)"
                        )
                    }
                    guard chromaFormat == nil || chromaFormat == sequence.chromaFormat else { throw Unsupported("the tiles differ in chroma format") }
                    chromaFormat = sequence.chromaFormat
                }
                configurations.append(hvcC.payload)
                tiles.append(data)
                // Tiles sharing their data would make one file cost thousands of copies and parses.
                totalTileBytes += data.reduce(0) { $0 + $1.count }
                guard totalTileBytes <= bytes.count else {
                    throw Unsupported("the tiles' data adds up to more than the file")
                }
            }
            guard let tileSize, let chromaFormat else {
                throw Unsupported(tileIDs.isEmpty ? "the image has no tiles" : "no sequence parameter set describes the picture")
            }
            // Tiles may overhang the picture by less than a tile; the area decoded stays within
            // a small multiple of the picture's.
            guard rows * columns * tileSize.width * tileSize.height <= 4 * width * height + (1 << 20) else {
                throw Unsupported("\(rows)x\(columns) tiles of \(tileSize.width)x\(tileSize.height) decode far more than \(width)x\(height)")
            }
            // Every tile must overlap the picture, and the tiles must cover it.
            guard tileSize.width * columns >= width, tileSize.height * rows >= height,
                  tileSize.width * (columns - 1) < width, tileSize.height * (rows - 1) < height else {
                throw Unsupported("\(rows)x\(columns) tiles of \(tileSize.width)x\(tileSize.height) do not fit \(width)x\(height)")
            }
            return HEIFContainer(
                width: width, height: height, columns: columns, rows: rows,
                tileWidth: tileSize.width, tileHeight: tileSize.height,
                tiles: tiles, configurations: configurations, transform: transform, colour: colour, chromaFormat: chromaFormat
            )
        }
    }
}
