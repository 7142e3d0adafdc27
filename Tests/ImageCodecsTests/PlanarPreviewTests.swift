import Foundation
@testable import ImageCodecs
import PhotoFormat
import TestFixtures
import Testing

/// The JPEG preview made without libvips (the decode's Y, Cb and Cr planes area-reduced and
/// written by libjpeg-turbo as they are) against libvips: the same size, orientation and nearly
/// the same pixels as the libvips path on the same kept pixels and as libvips' own preview of the
/// file; and the decode that keeps the planes gives the blur check exactly the luma-only decode's luma.
@Suite("Planar preview", .integration, .timeLimit(.minutes(10)))
struct PlanarPreviewTests {
    /// The JPEGs of `testdata` (baseline and progressive, 4:2:0 and 4:4:4, grey, turned) and the
    /// 18-megapixel iPhone photo when ../shared is there.
    static let jpegs: [String] = {
        let photos = ["blur-real-plate-motion.jpg", "brushes-1365x1074.jpg", "cups.jpg", "grass-1280x1024.jpg", "indoor-ceiling-lamps.jpg",
                      "outdoor-dandelions-bokeh.jpg", "room-living-wine.jpg", "small-indoor-lab.jpg"].map { "photos/" + $0 }
        let variants = ["edge-399.jpg", "gray.jpg", "rotated-3.jpg", "rotated-6.jpg", "rotated-8.jpg", "same-room.jpg"].map { "variants/" + $0 }
        return photos + variants
    }()

    /// The file `name` names: in `testdata`, or `shared:` and a path in ../shared.
    private static func url(_ name: String) throws -> URL {
        if name.hasPrefix("shared:") {
            return try #require(Fixtures.sharedFile(String(name.dropFirst("shared:".count))))
        }
        return Fixtures.testdataFile(name)
    }

    /// The RGB samples of a JPEG (grey repeated three times), its width and height.
    static func rgb(_ jpeg: [UInt8]) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let image = try jpeg.withUnsafeBytes { try ImageDecoder().open($0) }
        var rgb: [UInt8] = []
        var geometry: PixelGeometry?
        try image.decodeStrips(plan: image.plan(targetShortSide: nil, lumaPaths: false)) { geometry = $0 } body: { strip, _, count, stride in
            let geometry = geometry!
            for row in 0..<count {
                for x in 0..<geometry.width {
                    for band in 0..<3 { rgb.append(strip[row * stride + x * geometry.bands + min(band, geometry.bands - 1)]) }
                }
            }
        }
        return (geometry!.width, geometry!.height, rgb)
    }

    /// The mean absolute difference per RGB sample of two previews of one size.
    static func meanDifference(_ ours: PreviewImage, _ theirs: PreviewImage) throws -> Double {
        let a = try rgb(ours.jpeg), b = try rgb(theirs.jpeg)
        try #require(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) against \(b.width)x\(b.height)")
        var sum = 0
        for index in a.rgb.indices { sum += abs(Int(a.rgb[index]) - Int(b.rgb[index])) }
        return Double(sum) / Double(a.rgb.count)
    }

    /// Expects `ours`, a bounded JPEG, within a pixel of `theirs` (libvips' preview) in size and
    /// within 4 levels per RGB sample of it on average where they overlap; prints the difference.
    static func expectAgrees(_ ours: PreviewImage, _ theirs: PreviewImage, file: String, what: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectBoundedJPEG(ours, sourceLocation: sourceLocation)
        #expect(abs(ours.width - theirs.width) <= 1 && abs(ours.height - theirs.height) <= 1,
                "\(ours.width)x\(ours.height) against \(theirs.width)x\(theirs.height)", sourceLocation: sourceLocation)
        let difference = try overlapDifference(ours, theirs)
        print("\(file): \(what) \(ours.width)x\(ours.height), mean |difference| from libvips' \(String(format: "%.2f", difference))")
        #expect(difference < 4, "\(file): mean |difference| \(difference)", sourceLocation: sourceLocation)
    }

    /// The mean absolute difference per RGB sample of two previews over the area they share
    /// (their sizes may differ by a pixel where two resizers round a side differently).
    static func overlapDifference(_ ours: PreviewImage, _ theirs: PreviewImage) throws -> Double {
        let a = try rgb(ours.jpeg), b = try rgb(theirs.jpeg)
        var sum = 0, count = 0
        for row in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                for band in 0..<3 {
                    sum += abs(Int(a.rgb[(row * a.width + x) * 3 + band]) - Int(b.rgb[(row * b.width + x) * 3 + band]))
                    count += 1
                }
            }
        }
        return Double(sum) / Double(count)
    }

    /// A `width` x `height` YCbCr picture that tells every turn and mirror apart: smooth luma and
    /// chroma ramps, and a bright patch with strong chroma near the top left corner.
    static func synthetic(width: Int, height: Int, layout: PreviewPixels.Layout) -> PreviewPixels {
        func y(_ x: Int, _ row: Int) -> UInt8 {
            if x < width / 5 && row < height / 4 { return 235 }
            return UInt8(30 + 150 * x / width + 40 * row / height)
        }
        func cb(_ x: Int, _ row: Int) -> UInt8 { x < width / 5 && row < height / 4 ? 60 : UInt8(100 + 60 * row / height) }
        func cr(_ x: Int, _ row: Int) -> UInt8 { x < width / 5 && row < height / 4 ? 200 : UInt8(150 - 40 * x / width) }
        switch layout {
        case .interleaved(let bands):
            let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * bands)
            for row in 0..<height {
                for x in 0..<width {
                    let pixel = samples + (row * width + x) * bands
                    pixel[0] = y(x, row)
                    if bands == 3 {
                        pixel[1] = cb(x, row)
                        pixel[2] = cr(x, row)
                    }
                }
            }
            return PreviewPixels(layout: layout, width: width, height: height, samples: samples)
        case .planar(let shiftX, let shiftY):
            let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
            for row in 0..<height {
                for x in 0..<width { samples[row * width + x] = y(x, row) }
            }
            let chromaWidth = (width + (1 << shiftX) - 1) >> shiftX, chromaHeight = (height + (1 << shiftY) - 1) >> shiftY
            let blue = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaWidth * chromaHeight)
            let red = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaWidth * chromaHeight)
            for row in 0..<chromaHeight {
                for x in 0..<chromaWidth {
                    blue[row * chromaWidth + x] = cb(x << shiftX, row << shiftY)
                    red[row * chromaWidth + x] = cr(x << shiftX, row << shiftY)
                }
            }
            return PreviewPixels(layout: layout, width: width, height: height, samples: samples, cb: blue, cr: red)
        case .rgb:
            preconditionFailure("a YCbCr picture")
        }
    }

    @Test("an axis that reduces by a large factor (a long panorama) has weights that sum to its unit, and a flat plane stays flat",
          arguments: [2.5, 22.7, 26.9, 40.0, 90.5, 300.0])
    func largeReductions(scale: Double) {
        for unit in [PreviewResampler.verticalUnit, PreviewResampler.horizontalUnit] {
            let length = Int((scale * 7).rounded(.up))
            let axis = PreviewResampler.Axis(outputs: 7, origin: 0, scale: scale, start: 0, end: Double(length), length: length, unit: unit)
            for output in 0..<axis.count {
                let weights = axis.weights[(output * axis.taps)..<((output + 1) * axis.taps)]
                #expect(weights.reduce(0) { $0 + Int($1) } == unit, "output \(output) at scale \(scale), unit \(unit)")
            }
        }
        let width = 16, height = Int((scale * 5).rounded(.up))
        let plane = [UInt8](repeating: 200, count: width * height)
        var target = [UInt8](repeating: 0, count: 4 * 5)
        let horizontal = PreviewResampler.Axis(outputs: 4, origin: 0, scale: 4, start: 0, end: 16, length: width, unit: PreviewResampler.horizontalUnit)
        let vertical = PreviewResampler.Axis(outputs: 5, origin: 0, scale: Double(height) / 5, start: 0, end: Double(height), length: height,
                                             unit: PreviewResampler.verticalUnit)
        plane.withUnsafeBufferPointer { source in
            target.withUnsafeMutableBufferPointer { out in
                PreviewResampler.reduce(source.baseAddress!, stride: width, horizontal: horizontal, vertical: vertical,
                                        into: out.baseAddress!, placement: (0, 1, 4))
            }
        }
        #expect(target.allSatisfy { $0 == 200 }, "a flat plane reduced by \(scale): \(target)")
    }

    @Test("every EXIF orientation is shown as the libvips path shows it", arguments: 1...8)
    func orientations(exif: Int) throws {
        // Bounds that make odd sides, so the half-sized chroma's alignment is exercised too.
        let encoder = try PreviewEncoder(maximumLongEdge: 121, maximumPixels: 121 * 81, quality: 95)
        for layout in [PreviewPixels.Layout.interleaved(bands: 3), .planar(chromaShiftX: 1, chromaShiftY: 1), .planar(chromaShiftX: 0, chromaShiftY: 0)] {
            let pixels = Self.synthetic(width: 301, height: 199, layout: layout)
            pixels.orientation = PreviewPixels.orientation(exif: exif)
            let ours = try #require(try encoder.planarPreview(from: pixels), "\(layout)")
            let theirs = try encoder.vipsPreview(from: pixels)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(layout): \(ours.width)x\(ours.height) against \(theirs.width)x\(theirs.height)")
            let difference = try Self.meanDifference(ours, theirs)
            #expect(difference < 3, "orientation \(exif), \(layout): mean |difference| \(difference)")
        }
    }

    @Test("a crop and a grey picture come out as from the libvips path")
    func cropAndGrey() throws {
        let encoder = try PreviewEncoder(maximumLongEdge: 100, maximumPixels: 100 * 70, quality: 95)
        for (layout, exif) in [(PreviewPixels.Layout.planar(chromaShiftX: 1, chromaShiftY: 1), 6), (.interleaved(bands: 1), 1), (.interleaved(bands: 1), 8), (.interleaved(bands: 3), 3)] {
            let pixels = Self.synthetic(width: 320, height: 240, layout: layout)
            pixels.crop = (17, 9, 251, 173)
            pixels.orientation = PreviewPixels.orientation(exif: exif)
            let ours = try #require(try encoder.planarPreview(from: pixels))
            let theirs = try encoder.vipsPreview(from: pixels)
            let difference = try Self.meanDifference(ours, theirs)
            #expect(difference < 3, "\(layout), orientation \(exif): mean |difference| \(difference)")
            let info = try #require(JPEGInspection(ours.jpeg))
            #expect(info.hasNoMetadata, "segments: \(info.metadataSegments)")
        }
        // Not reduced at all: a picture already within the bounds keeps its size.
        let small = Self.synthetic(width: 37, height: 23, layout: .interleaved(bands: 3))
        let same = try #require(try encoder.planarPreview(from: small))
        #expect(same.width == 37 && same.height == 23)
        #expect(try Self.meanDifference(same, encoder.vipsPreview(from: small)) < 3)
    }

    @Test("chroma in another matrix or range, and libvips' RGB, stay on the libvips path")
    func declines() throws {
        let encoder = try PreviewEncoder()
        let limited = Self.synthetic(width: 64, height: 48, layout: .planar(chromaShiftX: 1, chromaShiftY: 1))
        limited.chromaGain = 255.0 / 224.0
        #expect(try encoder.planarPreview(from: limited) == nil)
        let bt709 = Self.synthetic(width: 64, height: 48, layout: .planar(chromaShiftX: 1, chromaShiftY: 1))
        bt709.matrix = PreviewPixels.weights(matrix: 1)
        #expect(try encoder.planarPreview(from: bt709) == nil)
        let rgb = PreviewPixels(layout: .rgb(bands: 3), width: 4, height: 4, samples: .allocate(capacity: 48))
        rgb.samples.initialize(repeating: 128, count: 48)
        #expect(try encoder.planarPreview(from: rgb) == nil)
    }

    @Test("a PNG's or WebP's kept RGB, grey and alpha come out as from the libvips path: turned, mirrored and cropped, within rounding")
    func rgbAsLibvips() throws {
        let encoder = try PreviewEncoder()
        for bands in 1...4 {
            for orientation in [(0, false), (90, false), (180, true), (270, true)] {
                let (width, height) = (3000, 2100)
                let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * bands)
                for row in 0..<height {
                    for x in 0..<width {
                        let pixel = samples + (row * width + x) * bands
                        let patch = x < width / 5 && row < height / 4
                        pixel[0] = patch ? 230 : UInt8(20 + 200 * x / width)
                        if bands >= 3 {
                            pixel[1] = patch ? 40 : UInt8(60 + 150 * row / height)
                            pixel[2] = UInt8(200 - 150 * x / width)
                        }
                        // A ramp of opacity across the picture, fully opaque on the left.
                        if bands == 2 || bands == 4 { pixel[bands - 1] = UInt8(255 - 200 * x / width) }
                    }
                }
                let pixels = PreviewPixels(layout: .rgb(bands: bands), width: width, height: height, samples: samples)
                pixels.crop = (100, 50, 2800, 2000)
                pixels.orientation = orientation
                let converted = try #require(pixels.ycbcrFromRGB())
                let ours = try #require(try encoder.planarPreview(from: converted), "\(bands) bands: the planar path declined")
                let theirs = try encoder.vipsPreview(from: pixels)
                #expect(ours.width == theirs.width && ours.height == theirs.height, "\(bands) bands \(orientation)")
                let difference = try Self.meanDifference(ours, theirs)
                #expect(difference < 3, "\(bands) bands \(orientation): mean |difference| \(difference)")
                // And `preview(from:)` takes that path.
                #expect(try encoder.preview(from: pixels).jpeg == ours.jpeg)
            }
        }
    }

    @Test("the preview of a PNG or WebP from its decode agrees with libvips' own preview of the file",
          arguments: ["variants/same-room.png", "variants/same-room.webp", "variants/rgba.png", "variants/palette.png", "variants/deep-16bit-rgb.png",
                      "photos/screenshot-map.png", "photos/blur-real-clock-motion.png"])
    func rgbAgreesWithLibvips(file: String) async throws {
        let url = Fixtures.testdataFile(file)
        let (ours, header) = try await preview(url)
        let theirs = try await offloaded {
            try Data(contentsOf: url).withUnsafeBytes { try PreviewEncoder().preview(of: $0, format: header.format) }
        }
        try Self.expectAgrees(ours, theirs, file: file, what: "preview")
    }

    @Test("the preview of a JPEG from its decode agrees with libvips' own preview of the file",
          arguments: jpegs + (Fixtures.sharedRequiredOrPresent ? ["shared:photos/room-bathroom-1.jpg"] : []))
    func agreesWithLibvips(file: String) async throws {
        let url = try Self.url(file)
        let (ours, _) = try await preview(url)
        let theirs = try await offloaded {
            try Data(contentsOf: url).withUnsafeBytes { try PreviewEncoder().preview(of: $0, format: .jpeg) }
        }
        try Self.expectAgrees(ours, theirs, file: file, what: "planar preview")
    }

    @Test("the decode that keeps the planes hands out exactly the luma-only decode's luma",
          arguments: jpegs + (Fixtures.sharedRequiredOrPresent ? ["shared:photos/room-bathroom-1.jpg"] : []))
    func lumaUnchanged(file: String) throws {
        let data = try Data(contentsOf: Self.url(file))
        /// The luma strips of a decode at `scale`/8, and what it kept.
        func decode(keeping: Bool, scale: Int, minimumChroma: (Int, Int) = (0, 0)) throws -> ([UInt8], PreviewPixels?) {
            try data.withUnsafeBytes { bytes in
                let decoder = try LibJPEGDecoder(bytes: bytes, memoryLimit: 1 << 30, maximumScans: 1000)
                var luma: [UInt8] = [], width = 0, next = 0
                let kept = try decoder.decode(luma: true, scaleNumerator: scale, keepingPreview: keeping, minimumChroma: minimumChroma,
                                              rowsPerStrip: 64, begin: { width = $0.width }) { strip, first, count, stride in
                    #expect(first == next && count <= 64)
                    next = first + count
                    for row in 0..<count { luma += UnsafeBufferPointer(start: strip + row * stride, count: width) }
                }
                return (luma, kept)
            }
        }
        for scale in file.hasPrefix("shared:") ? [3] : [1, 2, 3, 5, 8] {
            let (plain, none) = try decode(keeping: false, scale: scale)
            let (luma, kept) = try decode(keeping: true, scale: scale)
            #expect(none == nil)
            #expect(plain == luma, "\(file) at \(scale)/8: the luma differs")
            // Chroma decoded as coarsely as the planes allow leaves the luma as it was too.
            let (coarse, _) = try decode(keeping: true, scale: scale, minimumChroma: (1, 1))
            #expect(plain == coarse, "\(file) at \(scale)/8 with the coarsest chroma: the luma differs")
            let pixels = try #require(kept)
            // These are 4:2:0 (cups.jpg and room-living-wine.jpg are 4:2:2, whose chroma libjpeg
            // already decodes with the 3x3 inverse DCT: planar(1, 0)).
            if scale == 3, file.hasPrefix("shared:") || ["rotated-3.jpg", "rotated-6.jpg", "rotated-8.jpg"].contains((file as NSString).lastPathComponent) {
                guard case .planar(1, 1) = pixels.layout else {
                    Issue.record("\(file): a 4:2:0 JPEG at 3/8 keeps chroma at half luma's resolution, not \(pixels.layout)")
                    continue
                }
            }
        }
    }

    @Test("a report's 256 px thumbnail keeps chroma and luma only as fine as it needs and is still the picture libvips shows: in colour, turned, no metadata",
          // 4:2:0 at 8/8 (turned three ways), 4:2:2 at 6/8, 4:4:4 at 6/8 and 4/8. (room-living-wine.jpg,
          // 4:2:2 at 4/8, is left out: at 256 px its preview and libvips' differ by a pixel in
          // height, which shifts every row the pixel-by-pixel comparison reads.)
          arguments: ["variants/rotated-3.jpg", "variants/rotated-6.jpg", "variants/rotated-8.jpg", "photos/cups.jpg",
                      "photos/outdoor-path.jpg", "photos/indoor-ceiling-lamps.jpg"])
    func thumbnailChroma(file: String) async throws {
        let url = Fixtures.testdataFile(file)
        let data = try Data(contentsOf: url)
        let encoder = try PreviewEncoder(maximumLongEdge: 256, maximumPixels: 256 * 256, quality: 80)
        // As a report's validation plans it: the analysis scale, with a thumbnail kept.
        let (plan, header) = try data.withUnsafeBytes { bytes in
            let image = try ImageDecoder().open(bytes)
            return (image.plan(targetShortSide: 1024, preview: encoder), image.header)
        }
        try #require(plan.keepsPreview && plan.previewChromaWidth > 0 && plan.previewChromaHeight > 0, "\(file): \(plan)")
        /// The pixels a decode as planned keeps, its chroma no finer than `minimumChroma` needs.
        func decoded(minimumChroma: (Int, Int)) throws -> PreviewPixels {
            try data.withUnsafeBytes { bytes in
                try #require(try LibJPEGDecoder(bytes: bytes, memoryLimit: 1 << 30, maximumScans: 1000).decode(
                    luma: true, scaleNumerator: plan.scaleNumerator, keepingPreview: true, minimumChroma: minimumChroma,
                    orientation: header.orientation, fullSize: (header.width, header.height), rowsPerStrip: 64, begin: { _ in }) { _, _, _, _ in })
            }
        }
        let kept = try decoded(minimumChroma: (plan.previewChromaWidth, plan.previewChromaHeight)), library = try decoded(minimumChroma: (0, 0))
        guard case .planar(let shiftX, let shiftY) = kept.layout, case .planar(let libraryX, let libraryY) = library.layout, let cb = kept.cb else {
            Issue.record("\(file): the decode kept \(kept.layout), not planes")
            return
        }
        // Fewer chroma samples than libjpeg decodes on its own, and still at least as many as the
        // thumbnail's own 4:2:0 chroma; Y box-reduced on the way, still at least the thumbnail's size.
        let chroma = PreviewPixels.chromaSize(width: kept.crop.width, height: kept.crop.height, shiftX: shiftX, shiftY: shiftY)
        let libraryChroma = PreviewPixels.chromaSize(width: library.crop.width, height: library.crop.height, shiftX: libraryX, shiftY: libraryY)
        #expect(chroma.width * chroma.height < libraryChroma.width * libraryChroma.height,
                "\(file) at \(plan.scaleNumerator)/8: chroma \(chroma), libjpeg's \(libraryChroma)")
        #expect(chroma.width >= plan.previewChromaWidth - 2 && chroma.height >= plan.previewChromaHeight - 2, "\(file): chroma \(chroma)")
        #expect(kept.crop.width < library.crop.width && kept.crop.width >= 2 * (plan.previewChromaWidth - 2)
                    && kept.crop.height >= 2 * (plan.previewChromaHeight - 2),
                "\(file): luma kept \(kept.crop.width)x\(kept.crop.height) of \(library.crop.width)x\(library.crop.height)")
        #expect(Set(UnsafeBufferPointer(start: cb, count: chroma.width * chroma.height)).count > 8, "\(file): the kept Cb is flat")

        let ours = try encoder.preview(from: kept)
        let theirs = try data.withUnsafeBytes { try encoder.preview(of: $0, format: .jpeg) }
        #expect(max(ours.width, ours.height) <= 256)
        #expect((ours.width > ours.height) == (header.width > header.height), "\(file): \(ours.width)x\(ours.height), displayed \(header.width)x\(header.height)")
        #expect(abs(ours.width - theirs.width) <= 1 && abs(ours.height - theirs.height) <= 1, "\(ours.width)x\(ours.height) against \(theirs.width)x\(theirs.height)")
        let info = try #require(JPEGInspection(ours.jpeg))
        #expect(info.hasNoMetadata, "segments: \(info.metadataSegments)")
        let difference = try Self.overlapDifference(ours, theirs)
        /// The mean spread between a pixel's largest and smallest RGB sample: 0 for grey.
        func colourfulness(_ preview: PreviewImage) throws -> Double {
            let decoded = try Self.rgb(preview.jpeg)
            var sum = 0
            for pixel in stride(from: 0, to: decoded.rgb.count, by: 3) {
                let rgb = decoded.rgb[pixel..<(pixel + 3)]
                sum += Int(rgb.max()!) - Int(rgb.min()!)
            }
            return Double(sum) / Double(decoded.rgb.count / 3)
        }
        let colour = (ours: try colourfulness(ours), theirs: try colourfulness(theirs))
        print("\(file): thumbnail \(ours.width)x\(ours.height) from luma \(kept.crop.width)x\(kept.crop.height) and chroma \(chroma); mean |difference| from libvips' \(String(format: "%.2f", difference)); colourfulness \(String(format: "%.1f", colour.ours)) against \(String(format: "%.1f", colour.theirs))")
        #expect(difference < 4, "\(file): mean |difference| \(difference)")
        #expect(colour.theirs > 5 && abs(colour.ours - colour.theirs) < 0.15 * colour.theirs, "\(file): colourfulness \(colour)")
    }
}
