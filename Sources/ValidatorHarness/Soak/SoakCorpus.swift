import Foundation
import TestFixtures

/// The files a soak uploads: real photos (`../shared/photos`, `testdata/variants`), hostile files
/// (`testdata/hostile`, `../shared/bad-inputs`) and small photos for trickled bodies.
struct SoakCorpus: Sendable {
    /// One file: its name and bytes.
    struct File: Sendable {
        let name: String
        let bytes: [UInt8]

        /// The content type its extension names.
        var contentType: String {
            let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp",
                         "heic": "image/heic", "heif": "image/heif", "gif": "image/gif", "avif": "image/avif"]
            return types[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
        }
    }

    let photos: [File]
    let hostile: [File]
    let small: [File]
    /// The daemon's body limit, bytes.
    let bodyLimit: Int
    /// A mebibyte of random bytes, the unit of oversized chunked bodies.
    let megabyte: [UInt8]

    /// Reads the files; throws when there are no photos at all.
    init(bodyLimitMiB: Int) throws {
        func files(in folder: URL?, extensions: Set<String>? = nil) -> [File] {
            guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
            return names.sorted().compactMap { name in
                let url = folder.appendingPathComponent(name)
                let ext = url.pathExtension.lowercased()
                guard !name.hasPrefix("."), !["md", "csv", "txt"].contains(ext), extensions.map({ $0.contains(ext) }) ?? true,
                      let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
                return File(name: name, bytes: [UInt8](data))
            }
        }
        var photos = files(in: Fixtures.sharedFile("photos"), extensions: ["jpg", "png", "webp", "heic"])
            + files(in: Fixtures.testdataFile("variants"))
        if photos.isEmpty { photos = files(in: Fixtures.testdataFile("photos")) }
        guard !photos.isEmpty else { throw SoakRun.SetupError(description: "no photos found (../shared/photos, testdata/variants, testdata/photos)") }
        self.photos = photos
        hostile = files(in: Fixtures.testdataFile("hostile")) + files(in: Fixtures.sharedFile("bad-inputs"))
        let small = photos.filter { (20_000..<250_000).contains($0.bytes.count) }
        self.small = small.isEmpty ? Array(photos.sorted { $0.bytes.count < $1.bytes.count }.prefix(3)) : small
        bodyLimit = bodyLimitMiB << 20
        var generator = SystemRandomNumberGenerator()
        megabyte = (0..<(1 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
