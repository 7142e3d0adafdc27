import Foundation
@testable import ImageCodecs
import PhotoFormat
@testable import PhotoStructure
import TestFixtures
import Testing

@Suite("HEIC: the Swift HEIF reader and FFmpeg's HEVC decoder, with no HEIC reaching libheif", .integration, .timeLimit(.minutes(10)))
struct HEIFReaderTests {
    private func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    @Test("an iPhone HEIC is read as an 8x6 grid of 512-pixel 4:2:0 tiles, and every HEIC plan is FFmpeg's",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func iPhoneGrid() throws {
        let url = try #require(Fixtures.sharedFile("photos/room-couch-pug.heic"))
        let data = try bytes(url)
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        #expect(container.columns == 8 && container.rows == 6)
        #expect(container.tileWidth == 512 && container.tileHeight == 512)
        #expect(container.width == 4032 && container.height == 3024 && container.transform.isIdentity)
        #expect(container.chromaFormat == 1)
        #expect(container.tiles.count == 48 && container.configurations.count == 48)
        #expect(container.tiles.allSatisfy { $0.allSatisfy { $0.upperBound <= data.count && !$0.isEmpty } })
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        #expect(image.header.width == 4032 && image.header.height == 3024 && image.header.orientation == 1)
        for plan in [image.plan(targetShortSide: 1024), image.plan(targetShortSide: nil), image.plan(targetShortSide: 1024, lumaPaths: false)] {
            #expect(plan.decoder == .ffmpegHEVC && plan.luma && !plan.keepsPreview)
        }
        #expect(image.plan(targetShortSide: 1024, preview: try PreviewEncoder()).keepsPreview)
    }

    @Test("a rotated HEIC (irot) is shown turned: displayed size and picture",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func rotated() throws {
        let url = try #require(Fixtures.sharedFile("photos/paper-arrow.heic"))
        let data = try bytes(url)
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        #expect(container.transform.isTransposed)
        #expect(container.displayedWidth == 3024 && container.displayedHeight == 4032)
        // irot 3 (three quarter turns anticlockwise) is one clockwise.
        #expect(HEIFDecoder.orientation(of: container.transform) == (90, false))
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        #expect(image.header.width == 3024 && image.header.height == 4032)
    }

    /// A 3x2 picture: 0 1 2 / 3 4 5, through `transform`.
    private func displayed(_ transform: PixelTransform, bands: Int = 1) -> [UInt8] {
        let plane: [UInt8] = (0..<(6 * bands)).map { UInt8($0 / bands * 10 + $0 % bands) }
        var output = [UInt8](repeating: 255, count: transform.width * transform.height * bands)
        plane.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { strip in
                transform.copyRows(0..<transform.height, from: source.baseAddress!, storedWidth: 3, bands: bands, into: strip.baseAddress!)
            }
        }
        return output
    }

    @Test("turns, mirrors and crops map displayed pixels to stored ones as HEIF says")
    func transforms() {
        var turned = PixelTransform(width: 3, height: 2)
        turned.rotateAnticlockwise()
        #expect(turned.width == 2 && turned.height == 3)
        #expect(displayed(turned) == [20, 50, 10, 40, 0, 30])
        turned.rotateAnticlockwise()
        #expect(displayed(turned) == [50, 40, 30, 20, 10, 0])
        turned.rotateAnticlockwise()
        #expect(displayed(turned) == [30, 0, 40, 10, 50, 20])
        #expect(displayed(turned, bands: 2) == [30, 31, 0, 1, 40, 41, 10, 11, 50, 51, 20, 21])
        var mirrored = PixelTransform(width: 3, height: 2)
        mirrored.mirror(verticalAxis: true)
        #expect(displayed(mirrored) == [20, 10, 0, 50, 40, 30])
        var flipped = PixelTransform(width: 3, height: 2)
        flipped.mirror(verticalAxis: false)
        #expect(displayed(flipped) == [30, 40, 50, 0, 10, 20])
        var cropped = PixelTransform(width: 3, height: 2)
        cropped.crop(left: 1, top: 0, width: 2, height: 2)
        cropped.rotateAnticlockwise()
        #expect(displayed(cropped) == [20, 50, 10, 40])
        // Every combination's orientation, as the preview applies it, agrees with the map.
        for turns in 0..<4 {
            for mirror in [false, true] {
                var transform = PixelTransform(width: 3, height: 2)
                for _ in 0..<turns { transform.rotateAnticlockwise() }
                if mirror { transform.mirror(verticalAxis: true) }
                let (degrees, mirroredAfter) = HEIFDecoder.orientation(of: transform)
                var check = PixelTransform(width: 3, height: 2)
                for _ in 0..<((360 - degrees) / 90 % 4) { check.rotateAnticlockwise() }
                if mirroredAfter { check.mirror(verticalAxis: true) }
                #expect(displayed(check) == displayed(transform), "turns \(turns), mirror \(mirror)")
            }
        }
    }

    @Test("a damaged HEVC tile is corrupt_pixels, naming the tile")
    func damagedTile() throws {
        var data = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        data[data.count / 3] ^= 0xFF
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let plan = image.plan(targetShortSide: 1024)
        #expect(plan.decoder == .ffmpegHEVC)
        do {
            try image.decodeStrips(plan: plan) { _ in } body: { _, _, _, _ in }
            Issue.record("the damaged tile decoded")
        } catch let failure as DecodeFailure {
            #expect(failure.reason == .corruptPixels)
            #expect(failure.message.contains("tile 1 of 1"), "\(failure.message)")
        }
    }

    /// The displayed luma of `data` decoded with `threads` threads (and the preview planes kept),
    /// or the failure the decode stopped with.
    private func decoded(_ data: [UInt8], threads: Int) throws -> Result<[UInt8], DecodeFailure> {
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let plan = image.plan(targetShortSide: 1024, preview: try PreviewEncoder(), threads: threads)
        let tiles = try data.withUnsafeBytes { try HEIFContainer.read($0) }.tiles.count
        #expect(plan.threads == min(threads, tiles))
        var samples: [UInt8] = []
        var width = 0
        do {
            try image.decodeStrips(plan: plan) { width = $0.width } body: { strip, _, count, stride in
                for row in 0..<count { samples += UnsafeBufferPointer(start: strip + row * stride, count: width) }
            }
        } catch let failure as DecodeFailure {
            return .failure(failure)
        }
        return .success(samples)
    }

    @Test("tiles are decoded in the order the displayed strips read them, every tile once, and a strip waits for every tile it reads",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func tileSchedule() throws {
        for (name, transposed) in [("room-couch-pug.heic", false), ("paper-arrow.heic", true)] {
            let url = try #require(Fixtures.sharedFile("photos/\(name)"))
            let container = try bytes(url).withUnsafeBytes { try HEIFContainer.read($0) }
            #expect(container.transform.isTransposed == transposed)
            let schedule = HEIFTileSchedule(container: container, rowsPerStrip: 64)
            #expect(schedule.order.first == 0 && schedule.order.sorted() == Array(0..<container.tiles.count), "\(name)")
            #expect(schedule.stripCount == (container.displayedHeight + 63) / 64 && schedule.needed.last == container.tiles.count)
            let transform = container.transform
            for strip in 0..<schedule.stripCount {
                let decoded = Set(schedule.order.prefix(schedule.needed[strip]))
                for y in Set([strip * 64, min(strip * 64 + 63, transform.height - 1)]) {
                    for x in stride(from: 0, to: transform.width, by: 16) {
                        let source = transform.source(x: x, y: y)
                        let tile = source.y / container.tileHeight * container.columns + source.x / container.tileWidth
                        #expect(decoded.contains(tile), "\(name): strip \(strip) reads tile \(tile) before it is decoded")
                    }
                }
            }
            // A strip of the picture turned a quarter reads one column of tiles: the first strips
            // need one tile per row of tiles, not the whole top row.
            #expect(schedule.needed[0] == (transposed ? container.rows : container.columns), "\(name): \(schedule.needed[0])")
            #expect(schedule.take() == 0)
        }
    }

    @Test("on a grid shown turned, mirrored and cropped every way, each strip waits for exactly the tiles its pixels read, and strips go out once each, in order")
    func tileScheduleTransforms() {
        // A 3 x 2 grid of 100 x 80 tiles; the crops leave the first column of tiles out.
        var transforms: [PixelTransform] = []
        for cropped in [false, true] {
            for turns in 0..<4 {
                for mirror in [nil, true, false] as [Bool?] {
                    var transform = PixelTransform(width: 300, height: 160)
                    if cropped { transform.crop(left: 130, top: 10, width: 150, height: 140) }
                    for _ in 0..<turns { transform.rotateAnticlockwise() }
                    if let mirror { transform.mirror(verticalAxis: mirror) }
                    transforms.append(transform)
                }
            }
        }
        for transform in transforms {
            for rowsPerStrip in [16, 64] {
                let schedule = HEIFTileSchedule(transform: transform, tileWidth: 100, tileHeight: 80, columns: 3, rows: 2, tileCount: 6, rowsPerStrip: rowsPerStrip)
                #expect(schedule.order.first == 0 && schedule.order.sorted() == Array(0..<6))
                #expect(zip(schedule.needed, schedule.needed.dropFirst()).allSatisfy { $0 <= $1 })
                for strip in 0..<schedule.stripCount {
                    let rows = (strip * rowsPerStrip)..<min((strip + 1) * rowsPerStrip, transform.height)
                    var read = Set<Int>()
                    for y in rows {
                        for x in 0..<transform.width {
                            let source = transform.source(x: x, y: y)
                            read.insert(source.y / 80 * 3 + source.x / 100)
                        }
                    }
                    let before = Set(schedule.order.prefix(strip == 0 ? 0 : schedule.needed[strip - 1]))
                    let decoded = Set(schedule.order.prefix(schedule.needed[strip]))
                    // Every tile it reads is decoded first, and it waits for no tile it does not
                    // read (but tile 0, always taken first).
                    #expect(read.isSubset(of: decoded) && decoded.subtracting(before).subtracting([0]).isSubset(of: read), "strip \(strip) of \(transform)")
                }
                // Tiles decoded in order with strips claimed as they become ready: every strip once,
                // in order, and never while another thread is handing strips out.
                var handed: [Int] = []
                while let tile = schedule.take() {
                    schedule.decoded(tile)
                    guard let claimed = schedule.claimStrips() else { continue }
                    #expect(schedule.claimStrips() == nil, "a second thread claimed strips while the first hands them out")
                    handed += claimed
                    while let more = schedule.handedOut() { handed += more }
                }
                #expect(handed == Array(0..<schedule.stripCount), "\(transform)")
            }
        }
    }

    @Test("strips' consumer failing on 2 or 3 threads ends the decode with its error, without a hang",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func consumerFailsOnThreads() throws {
        struct Enough: Error {}
        let data = try bytes(try #require(Fixtures.sharedFile("photos/room-couch-pug.heic")))
        for threads in [2, 3] {
            let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
            var strips = 0
            #expect(throws: Enough.self, "\(threads) threads") {
                try image.decodeStrips(plan: image.plan(targetShortSide: 1024, threads: threads)) { _ in } body: { _, _, _, _ in
                    strips += 1
                    if strips == 5 { throw Enough() }
                }
            }
            #expect(strips == 5, "\(threads) threads: \(strips) strips after the consumer gave up")
        }
    }

    @Test("a HEIC's tiles decoded on 2 or 3 threads give the one-thread picture, and a damaged tile the one-thread failure",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func tilesInParallel() async throws {
        let url = try #require(Fixtures.sharedFile("photos/room-couch-pug.heic"))
        let data = try bytes(url)
        let one = try decoded(data, threads: 1)
        guard case .success(let picture) = one else { Issue.record("the photo did not decode: \(one)"); return }
        for threads in [2, 3] {
            guard case .success(let parallel) = try decoded(data, threads: threads) else { Issue.record("\(threads) threads failed"); continue }
            #expect(parallel == picture, "\(threads) threads")
        }
        // Damage in tile 30 of 48 and in tile 40: the first in file order is reported, as on one thread.
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        var damaged = data
        for tile in [29, 39] {
            let extent = try #require(container.tiles[tile].first)
            for offset in stride(from: extent.lowerBound + 40, to: extent.upperBound - 8, by: 97) { damaged[offset] ^= 0x5A }
        }
        let oneFailure = try decoded(damaged, threads: 1)
        guard case .failure(let expected) = oneFailure else { Issue.record("the damaged photo decoded"); return }
        #expect(expected.message.contains("tile 30 of 48"), "\(expected.message)")
        for threads in [2, 3] {
            let parallel = try decoded(damaged, threads: threads)
            #expect(parallel == .failure(expected), "\(threads) threads: \(parallel)")
        }
        // The first tile damaged in a file without nclx: the other threads, waiting for its range
        // to copy theirs, are released and the photo fails with it.
        #expect(container.colour == nil)
        var firstDamaged = data
        let firstExtent = try #require(container.tiles[0].first)
        for offset in stride(from: firstExtent.lowerBound + 40, to: firstExtent.upperBound - 8, by: 97) { firstDamaged[offset] ^= 0x5A }
        for threads in [1, 2, 3] {
            let failed = try decoded(firstDamaged, threads: threads)
            guard case .failure(let failure) = failed else { Issue.record("\(threads) threads: a damaged first tile decoded"); continue }
            #expect(failure.message.contains("tile 1 of 48"), "\(threads) threads: \(failure.message)")
        }
        // A turned photo: its tiles are decoded by columns, so a tile late in the file is taken
        // early. Damaged there and earlier in the file but later in the schedule, the failure is
        // still the first in file order.
        let turned = try bytes(try #require(Fixtures.sharedFile("photos/paper-arrow.heic")))
        let turnedContainer = try turned.withUnsafeBytes { try HEIFContainer.read($0) }
        let turnedOrder = HEIFTileSchedule(container: turnedContainer, rowsPerStrip: 64).order
        let takenEarly = turnedOrder[1], takenLate = try #require(turnedOrder.dropFirst(2).last { $0 > 0 && $0 < turnedOrder[1] })
        var turnedDamaged = turned
        for tile in [takenEarly, takenLate] {
            let extent = try #require(turnedContainer.tiles[tile].first)
            for offset in stride(from: extent.lowerBound + 40, to: extent.upperBound - 8, by: 97) { turnedDamaged[offset] ^= 0x5A }
        }
        for threads in [1, 2, 3] {
            let failed = try decoded(turnedDamaged, threads: threads)
            guard case .failure(let failure) = failed else { Issue.record("\(threads) threads: the damaged turned photo decoded"); continue }
            #expect(failure.message.contains("tile \(takenLate + 1) of \(turnedContainer.tiles.count)"), "\(threads) threads: \(failure.message)")
        }
        // The turned photo and the crafted controls' crops, turns and mirrors (one tile each, so
        // one thread: their schedules are checked on a grid above) give the one-thread picture.
        let controls = try await HEIFLies.generate().filter { !$0.isLie }
        for data in try [turned] + controls.map({ try bytes($0.url) }) {
            let one = try decoded(data, threads: 1)
            for threads in [2, 3] {
                #expect(try decoded(data, threads: threads) == one, "\(threads) threads")
            }
        }
    }

    @Test("every crafted lie is refused from the header in milliseconds; every control decodes at its displayed size",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func craftedFiles() async throws {
        let files = try await HEIFLies.generate()
        #expect(files.filter(\.isLie).count >= 15 && files.filter { !$0.isLie }.count >= 8)
        let decoder = try ImageDecoder()
        for file in files {
            let data = try bytes(file.url)
            let clock = ContinuousClock()
            let start = clock.now
            let opened: Result<EncodedImage, DecodeFailure>
            do {
                opened = .success(try data.withUnsafeBytes { try decoder.open($0) })
            } catch let failure as DecodeFailure {
                opened = .failure(failure)
            }
            if file.isLie {
                switch opened {
                case .success(let image):
                    // A lie the header cannot show (a cut tile) must still fail in the decode.
                    #expect(throws: DecodeFailure.self, "\(file) was accepted") {
                        try image.decodeStrips(plan: image.plan(targetShortSide: 1024)) { _ in } body: { _, _, _, _ in }
                    }
                case .failure(let failure):
                    if file.description.hasPrefix("lie-cost-") {
                        #expect(failure.reason == .costlyStructure, "\(file): \(failure)")
                    } else {
                        #expect([.unreadableHeader, .pixelLimitExceeded, .unsupportedFormat].contains(failure.reason), "\(file): \(failure)")
                    }
                    #expect(clock.now - start < .milliseconds(500), "\(file) took \(clock.now - start) to refuse")
                }
            } else {
                let image = try #require(try? opened.get(), "\(file) was refused: \(opened)")
                var geometry: PixelGeometry?
                var rows = 0
                try image.decodeStrips(plan: image.plan(targetShortSide: 1024)) { geometry = $0 } body: { _, _, count, _ in rows += count }
                #expect(geometry?.width == image.header.width && geometry?.height == image.header.height && rows == image.header.height, "\(file)")
            }
        }
    }

    /// The displayed luma of the photo at `url` (grey from RGB for a PNG), with its size.
    private func luma(of url: URL) throws -> (width: Int, height: Int, samples: [UInt8]) {
        let image = try bytes(url).withUnsafeBytes { try ImageDecoder().open($0) }
        var geometry: PixelGeometry?
        var samples: [UInt8] = []
        try image.decodeStrips(plan: image.plan(targetShortSide: nil, lumaPaths: false)) { geometry = $0 } body: { strip, _, count, stride in
            let g = geometry!
            for row in 0..<count {
                for x in 0..<g.width {
                    let pixel = strip + row * stride + x * g.bands
                    if g.bands < 3 {
                        samples.append(pixel[0])
                    } else {
                        let weighted: Int = 299 * Int(pixel[0]) + 587 * Int(pixel[1]) + 114 * Int(pixel[2])
                        samples.append(UInt8((weighted + 500) / 1000))
                    }
                }
            }
        }
        return (geometry!.width, geometry!.height, samples)
    }

    @Test("every control's crop, turns and mirrors match libheif's own decode (pillow-heif) pixel for pixel, within rounding",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func transformsMatchLibheif() async throws {
        let controls = try await HEIFLies.generate().filter { !$0.isLie }
        let references = try await PillowHEIF.pngCopies(of: controls.map(\.url))
        if Fixtures.peersRequired {
            try #require(references.count == controls.count, "pillow-heif decoded \(references.count) of \(controls.count) controls")
        }
        for control in controls {
            guard let png = references[control.url.path] else { continue }
            let ours = try luma(of: control.url), theirs = try luma(of: png)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(control): \(ours.width)x\(ours.height) against \(theirs.width)x\(theirs.height)")
            guard ours.samples.count == theirs.samples.count else { continue }
            let difference = zip(ours.samples, theirs.samples).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(ours.samples.count)
            #expect(difference < 3, "\(control): mean |luma difference| \(difference) against libheif")
        }
    }

    @Test("the crafted controls' transforms: clap crops to its clean aperture, irot turns, imir mirrors",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func controlGeometry() async throws {
        let files = try await HEIFLies.generate()
        func header(_ name: String) throws -> ImageHeader {
            let file = try #require(files.first { $0.url.lastPathComponent == name })
            return try bytes(file.url).withUnsafeBytes { try ImageDecoder().open($0).header }
        }
        #expect(try header("control-single.heic").width == 512)
        #expect(try header("control-clap.heic").width == 412 && header("control-clap.heic").height == 452)
        #expect(try header("control-clap-irot-imir.heic").width == 480 && header("control-clap-irot-imir.heic").height == 448)
        #expect(try header("control-irot-imir-axis1.heic").width == 512)
        #expect(try header("control-grid-2x2.heic").width == 1008)
    }

    /// The offset of the first box of type `type` (its size field) in `data`.
}
