/// What a luma decode of a HEIC photo's primary image needs from the file's `meta` box: the tiles'
/// coded data, the grid they form, the decoder configuration and the rotation.
///
/// Read in Swift, with every offset checked, so that no C parser sees the container on this path
/// (the HEVC bitstream itself goes to FFmpeg). Anything this reader does not handle (a `clap` crop,
/// a mirror, overlays, an essential property it does not know, a colour matrix other than
/// BT.601's) is `Unsupported`, and the photo goes through libvips and libheif as before.
struct HEIFContainer: Equatable {
    /// Why a file cannot take this path; the photo is then decoded by libvips instead.
    struct Unsupported: Error, Equatable {
        /// What this reader does not handle or could not find.
        let reason: String

        init(_ reason: String) {
            self.reason = reason
        }
    }

    /// More tiles than this are left to libvips: a real 100 MP photo has a few hundred, while
    /// tiny tiles would make the per-tile overhead the cost.
    static let maximumTiles = 4096

    /// The largest tile side accepted: above HEVC's largest picture (level 6.2 allows about
    /// 8,444 x 4,222 luma samples, or 16,888 on a side for a narrow picture).
    static let maximumTileSide = 16_888

    /// Width of the picture the tiles form (cropped to the grid's output size), before rotation.
    let width: Int
    /// Height of the picture the tiles form, before rotation.
    let height: Int
    /// Tiles per row.
    let columns: Int
    /// Rows of tiles.
    let rows: Int
    /// Every tile's width as declared (`ispe`); each tile must decode to exactly this.
    let tileWidth: Int
    /// Every tile's height as declared.
    let tileHeight: Int
    /// Each tile's coded data, row by row: the byte ranges of its extents in the file.
    let tiles: [[Range<Int>]]
    /// The `hvcC` payload the tiles share (FFmpeg's decoder configuration).
    let configuration: Range<Int>
    /// Quarter turns anticlockwise to apply after assembly (`irot`), 0 to 3.
    let quarterTurns: Int
    /// True when the file describes its colour (`nclx`, full range, BT.601-like); otherwise the
    /// bitstream's own description decides, as it does for libheif (limited-range luma is expanded).
    var describesColour = false

    /// The displayed width, after rotation.
    var displayedWidth: Int { quarterTurns % 2 == 0 ? width : height }
    /// The displayed height, after rotation.
    var displayedHeight: Int { quarterTurns % 2 == 0 ? height : width }
    /// The largest tile's coded size in bytes.
    var largestTileBytes: Int { tiles.map { $0.reduce(0) { $0 + $1.count } }.max() ?? 0 }

    /// A property of an item: its box type and payload, and whether the file marks it essential.
    private struct Property {
        let type: String
        let payload: Range<Int>
        let essential: Bool
        let index: Int
    }

    /// Properties a reader must understand when marked essential; unknown essential ones make the
    /// file unsupported, unknown inessential ones are ignored (as the HEIF standard says).
    private static let understood: Set<String> = ["hvcC", "ispe", "colr", "pixi", "irot"]

    /// Reads the container of `bytes`, a file already sniffed as HEIF.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(Unsupported) -> HEIFContainer {
        var parser = Parser(bytes: bytes)
        return try parser.container()
    }

    /// The parse itself: the boxes of `meta` gathered into tables, then the primary item resolved.
    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var primary: Int?
        var itemTypes: [Int: String] = [:]
        var protectedItems: Set<Int> = []
        var locations: [Int: (method: Int, extents: [(offset: Int, length: Int)])] = [:]
        var derivations: [Int: [Int]] = [:]
        var properties: [(type: String, payload: Range<Int>)] = []
        var associations: [Int: [(index: Int, essential: Bool)]] = [:]
        var itemData: Range<Int>?

        /// Boxes that may appear once in `meta` (and `ipco`/`ipma` once in `iprp`).
        static let singular: Set<String> = ["hdlr", "pitm", "iinf", "iloc", "iref", "iprp", "idat", "ipco", "ipma"]

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
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
                guard handler == "pict" else { throw Unsupported("the meta handler is \(handler), not pict") }
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
                // Extents of zero bytes each would let a few bytes stand for 65,535 of them.
                guard indexSize + offsetSize + lengthSize > 0 || extentCount <= 1 else {
                    throw Unsupported("the iloc box declares many extents of no size")
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
                guard locations.updateValue((dataReference == 0 ? method : -1, extents), forKey: id) == nil else {
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
                guard box.type == "dimg" else { continue }
                var targets: [Int] = []
                for _ in 0..<count {
                    guard let to = entry.uint(idSize) else { throw Unsupported("an item reference is short") }
                    targets.append(to)
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
                    throw Unsupported("item \(id) has an essential \(property.type) property")
                }
                if property.type == "clap" || property.type == "imir" {
                    throw Unsupported("item \(id) is cropped or mirrored (\(property.type))")
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

        /// Refuses colour descriptions under which the luma plane is not what libheif's RGB would
        /// give back: limited range, or a matrix other than BT.601's (libheif's default).
        @discardableResult
        private func checkColour(_ id: Int, _ itemProperties: [Property]) throws(Unsupported) -> Bool {
            var described = false
            for colour in itemProperties where colour.type == "colr" {
                guard var reader = HEIFByteReader(bytes, colour.payload), let kind = reader.fourCC() else {
                    throw Unsupported("item \(id) has a short colr property")
                }
                guard kind == "nclx" else { continue }
                guard reader.skip(4), let matrix = reader.uint16(), let range = reader.uint8() else {
                    throw Unsupported("item \(id) has a short nclx colour description")
                }
                guard range & 0x80 != 0, [2, 5, 6].contains(matrix) else {
                    throw Unsupported("item \(id) uses colour matrix \(matrix)\(range & 0x80 == 0 ? " in limited range" : "")")
                }
                described = true
            }
            return described
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
            default: throw Unsupported("item \(id)'s data is constructed in a way this reader does not follow")
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
        /// coded picture and no parameter sets, so that FFmpeg (one decoder for every tile, first
        /// picture) and libheif (a decoder per tile, last picture) decode the same thing.
        private func checkPictureUnits(_ extents: [Range<Int>], tile: Int) throws(Unsupported) {
            // Only NAL headers are read, in place: the tile's extents read as one stream.
            let count = extents.reduce(0) { $0 + $1.count }
            func byte(_ offset: Int) -> Int {
                var offset = offset
                for extent in extents {
                    if offset < extent.count { return Int(bytes[extent.lowerBound + offset]) }
                    offset -= extent.count
                }
                return 0
            }
            var offset = 0
            var pictures = 0
            while offset < count {
                guard count - offset >= 6 else { throw Unsupported("tile \(tile + 1)'s NAL units are cut short") }
                let length = byte(offset) << 24 | byte(offset + 1) << 16 | byte(offset + 2) << 8 | byte(offset + 3)
                offset += 4
                guard length >= 2, length <= count - offset else { throw Unsupported("tile \(tile + 1) has a NAL unit of impossible length") }
                switch (byte(offset) >> 1) & 0x3F {
                case 32, 33, 34:
                    throw Unsupported("tile \(tile + 1) carries parameter sets of its own")
                case 0...31:
                    // A coded slice: the first bit after the 2-byte header starts a new picture.
                    if length >= 3, byte(offset + 2) & 0x80 != 0 { pictures += 1 }
                default:
                    break
                }
                offset += length
            }
            guard pictures == 1 else { throw Unsupported("tile \(tile + 1) holds \(pictures) coded pictures") }
        }

        private func resolvePrimary() throws(Unsupported) -> HEIFContainer {
            guard let primary, let type = itemTypes[primary] else { throw Unsupported("no primary item") }
            guard !protectedItems.contains(primary) else { throw Unsupported("the primary item is protected") }
            let primaryProperties = try propertiesOf(primary)
            var describesColour = try checkColour(primary, primaryProperties)
            var quarterTurns = 0
            for rotation in primaryProperties where rotation.type == "irot" {
                guard var reader = HEIFByteReader(bytes, rotation.payload), let angle = reader.uint8() else {
                    throw Unsupported("the irot property is empty")
                }
                quarterTurns = (quarterTurns + angle & 3) % 4
            }
            let (width, height) = try spatialExtent(primary, primaryProperties)
            // Far past any pixel limit (libvips refuses such a header anyway); keeps the sums below exact.
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
                guard tileIDs.count == rows * columns else {
                    throw Unsupported("the grid has \(rows)x\(columns) cells but \(tileIDs.count) tiles")
                }
            default:
                throw Unsupported("the primary item is \(type), not hvc1 or grid")
            }
            guard outputWidth == width, outputHeight == height else {
                throw Unsupported("the grid's output size \(outputWidth)x\(outputHeight) differs from its ispe \(width)x\(height)")
            }
            guard tileIDs.count <= HEIFContainer.maximumTiles else { throw Unsupported("more than \(HEIFContainer.maximumTiles) tiles") }
            var tileSize: (width: Int, height: Int)?
            var configurationIndex: Int?
            var configuration: Range<Int>?
            var tiles: [[Range<Int>]] = []
            tiles.reserveCapacity(tileIDs.count)
            for id in tileIDs {
                guard itemTypes[id] == "hvc1", !protectedItems.contains(id) else { throw Unsupported("tile \(id) is not an HEVC image") }
                let tileProperties = id == primary ? primaryProperties : try propertiesOf(id)
                if id != primary {
                    describesColour = try checkColour(id, tileProperties) || describesColour
                    guard !tileProperties.contains(where: { $0.type == "irot" }) else { throw Unsupported("tile \(id) is rotated") }
                }
                let size = try spatialExtent(id, tileProperties)
                guard size.width <= HEIFContainer.maximumTileSide, size.height <= HEIFContainer.maximumTileSide else {
                    throw Unsupported("tile \(id) declares \(size.width)x\(size.height), larger than any HEVC picture")
                }
                guard tileSize == nil || tileSize! == size else { throw Unsupported("the tiles differ in size") }
                tileSize = size
                guard let hvcC = tileProperties.first(where: { $0.type == "hvcC" }) else { throw Unsupported("tile \(id) has no hvcC") }
                guard configurationIndex == nil || configurationIndex == hvcC.index else {
                    throw Unsupported("the tiles have different decoder configurations")
                }
                configurationIndex = hvcC.index
                configuration = hvcC.payload
                tiles.append(try dataRanges(id))
            }
            // Tiles sharing their data would make one file cost thousands of copies and parses.
            guard tiles.joined().reduce(0, { $0 + $1.count }) <= bytes.count else {
                throw Unsupported("the tiles' data adds up to more than the file")
            }
            for (index, tile) in tiles.enumerated() {
                try checkPictureUnits(tile, tile: index)
            }
            guard let tileSize, let configuration else { throw Unsupported("the image has no tiles") }
            // FFmpeg and libheif must read the same stream: configuration version 1 with 4-byte NAL
            // lengths (what libheif 1.15 assumes), at least the 23-byte fixed part.
            guard configuration.count >= 23, bytes[configuration.lowerBound] == 1, bytes[configuration.lowerBound + 21] & 3 == 3 else {
                throw Unsupported("the hvcC decoder configuration is not version 1 with 4-byte NAL lengths")
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
                tiles: tiles, configuration: configuration, quarterTurns: quarterTurns, describesColour: describesColour
            )
        }
    }
}
