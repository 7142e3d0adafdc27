import Foundation
import TestFixtures
import Testing

/// The report pages of `validate`, `tune` and `label`, opened from disk in headless Chromium.
@Suite("report pages in a real browser", .integration, .serialized, .timeLimit(.minutes(10)),
       .enabled(if: HeadlessChromium.available, "chromium is not installed (scripts/setup --test installs it)"))
struct ReportPageTests {
    /// Runs the built `photo-validator` with the shipped thresholds.
    private func run(_ arguments: [String]) async throws -> ProcessRunner.Outcome {
        try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, arguments)
    }

    /// A file name no page may run: markup, quotes and an ampersand.
    static let hostileName = #"<img src=x onerror="document.title='owned'"> & co.jpg"#

    @Test("validate --report: loads with no console message; its counts are the run's; every refused photo is under each of its reasons with its thumbnail; a hostile file name stays text")
    func validateReport() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "flat/a-cups.jpg")
        try folder.copy("variants/same-room.heic", to: "flat/b-cups-again.heic")
        try folder.copy("photos/outdoor-path.jpg", to: "flat/c-path.jpg")
        try folder.copy("photos/blur-real-text-defocus.jpg", to: "flat/d-text.jpg")
        try folder.copy("photos/small-cat.png", to: "other/cat.png")
        try folder.copy("photos/blur-real-plate-motion.jpg", to: "other/" + Self.hostileName)
        try folder.copy("variants/rotated-8.jpg", to: "other/turned.jpg")
        try folder.write("not a photo at all", to: "other/broken.jpg")
        let report = folder.url.appendingPathComponent("report")
        let outcome = try await run(["validate", folder.url.path, "--type", "inspiration", "--format", "jsonl", "--no-progress", "--report", report.path, "--report-all-passed"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let records = try jsonLines(outcome.standardOutput)
        #expect(records.count == 8)
        let refused = records.filter { $0["passed"] as? Bool == false }
        #expect(Set(refused.flatMap { $0["failures"] as? [String] ?? [] }).isSuperset(of: ["duplicate_photo", "blurry", "low_resolution", "invalid_image"]))

        let page = try await HeadlessChromium.load(report.appendingPathComponent("index.html").appendingFragment("all"))
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains(#"data-status="ready""#), "\(page.dom.prefix(2000))")
        #expect(page.dom.contains("<title>photo-validator: validate report</title>"))
        #expect(!page.dom.contains(#"<img src="x""#))

        // The counts in the page are the run's.
        #expect(ReportDOM.bigCount(page.dom, "passed") == records.count - refused.count)
        #expect(ReportDOM.bigCount(page.dom, "refused") == refused.count)
        var byCode: [String: Int] = [:]
        for record in refused { for code in record["failures"] as? [String] ?? [] { byCode[code, default: 0] += 1 } }
        for (code, count) in byCode {
            #expect(ReportDOM.codeCount(page.dom, code) == count, "\(code)")
        }

        // Every refused photo is shown under each of its reasons, with its thumbnail when it decoded.
        let cards = ReportDOM.cards(page.dom)
        for record in refused {
            let path = try #require(record["path"] as? String)
            for code in record["failures"] as? [String] ?? [] {
                let card = cards.first { $0.code == code && $0.path == path }
                #expect(card != nil, "\(path) is not under \(code)")
                guard let card else { continue }
                if code == "invalid_image" {
                    #expect(card.thumbs.isEmpty && card.body.contains("no thumbnail"))
                    continue
                }
                let thumb = try #require(card.thumbs.first, "\(path) under \(code) has no thumbnail")
                let bytes = try [UInt8](Data(contentsOf: report.appendingPathComponent(thumb)))
                let jpeg = try #require(JPEGInspection(bytes))
                #expect(max(jpeg.width, jpeg.height) <= 256 && jpeg.hasNoMetadata, "\(thumb): \(jpeg)")
            }
        }
        // The blur model's tiles are over the thumbnail of a photo that has them, through the decode
        // worker: as many as the plane holds (at most 16), inside it; a photo that did not decode has none.
        let pathCard = try #require(cards.first { $0.path.hasSuffix("c-path.jpg") })
        let overlay = try #require(ReportDOM.tileMap(pathCard.body), "no tile map over \(pathCard.path)")
        #expect(overlay.viewBox.count == 4)
        #expect(overlay.tiles.count == min(16, (Int(overlay.viewBox.last ?? 0) / 64) * (Int(overlay.viewBox.dropLast().last ?? 0) / 64)))
        #expect(overlay.tiles.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= overlay.viewBox[2] && $0.y + $0.height <= overlay.viewBox[3] })
        #expect(pathCard.body.contains("blur_probability "))
        #expect(cards.filter { $0.path.hasSuffix("broken.jpg") }.allSatisfy { !$0.body.contains("tilemap") })
        // The hostile name is shown as text, once per card it is on.
        #expect(cards.contains { $0.path == "\(folder.url.path)/other/\(Self.hostileName)" })
        // Orientation is applied: the EXIF-rotated copy's thumbnail is as wide as the photo is displayed.
        let turned = try #require(records.first { ($0["path"] as? String)?.hasSuffix("turned.jpg") == true })
        let details = try #require(turned["details"] as? [String: Any])
        let turnedCard = try #require(cards.first { $0.path.hasSuffix("turned.jpg") })
        let turnedName = try #require(turnedCard.thumbs.first)
        let turnedThumb = try #require(JPEGInspection([UInt8](Data(contentsOf: report.appendingPathComponent(turnedName)))))
        #expect((turnedThumb.width > turnedThumb.height) == ((details["width"] as? Int ?? 0) > (details["height"] as? Int ?? 0)))

        let screenshot = folder.url.appendingPathComponent("validate.png")
        try await HeadlessChromium.screenshot(report.appendingPathComponent("index.html"), to: screenshot)
        #expect(try Data(contentsOf: screenshot).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("tune --report: every photo misjudged at the current and the recommended threshold is listed with its thumbnail; the slider in the fragment recomputes the counts")
    func tuneReport() async throws {
        let folder = try ScratchFolder()
        let photos = [("photos/cups.jpg", "sharp"), ("photos/outdoor-path.jpg", "sharp"), ("photos/room-living-wine.jpg", "sharp"),
                      ("photos/small-indoor-lab.jpg", "sharp"), ("photos/brushes-1365x1074.jpg", "sharp"),
                      ("photos/blur-real-text-defocus.jpg", "blurry"), ("photos/blur-real-plate-motion.jpg", "blurry"),
                      ("photos/blur-real-text-motion.jpg", "blurry"), ("photos/blur-real-clock-motion.png", "blurry")]
        var manifest = "path,label,photo_type\n"
        for (source, label) in photos {
            let name = (source as NSString).lastPathComponent
            try folder.copy(source, to: "set/\(name)")
            manifest += "\(name),\(label),room\n"
        }
        try folder.write(manifest, to: "set/manifest.csv")
        let report = folder.url.appendingPathComponent("report")
        let output = folder.url.appendingPathComponent("out")
        let outcome = try await run(["tune", folder.url.appendingPathComponent("set/manifest.csv").path, "--report", report.path, "--output", output.path, "--no-progress"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json"))) as? [String: Any])
        let room = try #require((json["types"] as? [[String: Any]])?.first)
        let scored = try #require(room["photos"] as? [[String: Any]])
        #expect(scored.count == photos.count)
        func threshold(_ key: String) throws -> Double {
            try #require(((room[key] as? [String: Any])?["matrix"] as? [String: Any])?["threshold"] as? Double)
        }
        let current = try threshold("current"), recommended = try threshold("recommended")
        func misjudged(at threshold: Double) -> Set<String> {
            Set(scored.compactMap { photo in
                let score = photo["score"] as? Double ?? 0, blurry = photo["label"] as? String == "blurry"
                return (score < threshold) != blurry ? photo["path"] as? String : nil
            })
        }
        func counts(at threshold: Double) -> [String: String] {
            var counts = ["tp": 0, "fp": 0, "tn": 0, "fn": 0]
            for photo in scored {
                let flagged = (photo["score"] as? Double ?? 0) < threshold, blurry = photo["label"] as? String == "blurry"
                counts[blurry ? (flagged ? "tp" : "fn") : (flagged ? "fp" : "tn"), default: 0] += 1
            }
            return counts.mapValues(String.init)
        }

        let page = try await HeadlessChromium.load(report.appendingPathComponent("index.html"))
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains(#"data-status="ready""#))
        for (label, threshold) in [("current", current), ("recommended", recommended)] {
            let listed = ReportDOM.misjudged(page.dom, label)
            #expect(Set(listed.map(\.path)) == misjudged(at: threshold), "\(label)")
            for card in listed {
                let thumb = try #require(card.thumbs.first, "\(card.path) has no thumbnail")
                #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent(thumb).path))
                #expect(ReportDOM.tileMap(card.body).map { !$0.tiles.isEmpty } == true, "\(card.path) has no tile map")
            }
            #expect(ReportDOM.metrics(page.dom, row: label).filter { ["tp", "fp", "tn", "fn"].contains($0.key) } == counts(at: threshold), "\(label)")
        }
        #expect(ReportDOM.metrics(page.dom, row: "slider").filter { ["tp", "fp", "tn", "fn"].contains($0.key) } == counts(at: current))

        // A slider set beyond every score calls every photo blurry, and the page's thresholds.json says so.
        let highest = scored.map { $0["score"] as? Double ?? 0 }.max() ?? 0
        let moved = try await HeadlessChromium.load(report.appendingPathComponent("index.html").appendingFragment("blur-room=\(Int(highest) + 1)"))
        #expect(moved.console.isEmpty, "\(moved.console)")
        let slider = ReportDOM.metrics(moved.dom, row: "slider")
        #expect(slider.filter { ["tp", "fp", "tn", "fn"].contains($0.key) } == counts(at: Double(Int(highest) + 1)))
        #expect(slider != ReportDOM.metrics(page.dom, row: "slider"))
        #expect(moved.dom.contains("&quot;blur_threshold&quot;: \(Int(highest) + 1)") || moved.dom.contains("\"blur_threshold\": \(Int(highest) + 1)"))

        let screenshot = folder.url.appendingPathComponent("tune.png")
        try await HeadlessChromium.screenshot(report.appendingPathComponent("index.html"), to: screenshot)
        #expect(try Data(contentsOf: screenshot).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("label --report: a grid of thumbnails and 1024 px views; labels given by the fragment make the manifests tune reads")
    func labelPage() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "a/cups.jpg")
        try folder.copy("photos/blur-real-text-defocus.jpg", to: "a/text, blurred.jpg")
        try folder.copy("photos/outdoor-path.jpg", to: "a/path.jpg")
        let report = folder.url.appendingPathComponent("report")
        let outcome = try await run(["label", folder.url.appendingPathComponent("a").path, "--report", report.path, "--no-progress"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let thumbs = try FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("thumbs").path).sorted()
        #expect(thumbs == ["000001-1024.jpg", "000001.jpg", "000002-1024.jpg", "000002.jpg", "000003-1024.jpg", "000003.jpg"])
        for name in thumbs {
            let jpeg = try #require(JPEGInspection([UInt8](Data(contentsOf: report.appendingPathComponent("thumbs/\(name)")))))
            let longest = max(jpeg.width, jpeg.height)
            #expect(name.hasSuffix("-1024.jpg") ? longest > 256 && longest <= 1024 : longest == 256, "\(name): \(jpeg)")
            #expect(jpeg.hasNoMetadata)
        }
        let page = try await HeadlessChromium.load(report.appendingPathComponent("index.html").appendingFragment("labels=0:sd,1:b,2:s"))
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains(#"data-status="ready""#))
        // Photos are in path order; paths are absolute, and a comma is quoted.
        let a = folder.url.appendingPathComponent("a").standardizedFileURL.path
        #expect(ReportDOM.element(page.dom, id: "blur-csv") == "path,label,photo_type\n\(a)/cups.jpg,sharp,room\n\(a)/path.jpg,blurry,room\n\"\(a)/text, blurred.jpg\",sharp,room\n")
        #expect(ReportDOM.element(page.dom, id: "exposure-csv") == "path,label\n\(a)/cups.jpg,too_dark\n")
    }
}

extension URL {
    /// This file URL with `fragment` after a `#`.
    func appendingFragment(_ fragment: String) -> URL {
        URL(string: absoluteString + "#" + fragment)!
    }
}
