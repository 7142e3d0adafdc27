import Foundation
import PhotoFormat

/// `label --report DIR PHOTOS…`: a page for labelling photos by eye, the same way every time. It
/// shows every photo in a grid of 256 px thumbnails and one at 1024 px on demand; keys set a
/// photo's blur label (sharp, blurry) and exposure label (usable, too dark, overexposed). The
/// labels are kept in the browser's `localStorage` and saved as the manifests `tune` reads, by
/// downloading them (a `Blob` and a link): `blur.csv` (`path,label,photo_type`, for
/// `tune LABELLED`) and `exposure.csv` (`path,label`, for `tune --check exposure`).
struct LabellingPage {
    /// The bounds of the large view: 1024 px on the long edge.
    static let largeBounds = PreviewBounds(maximumLongEdge: 1024, maximumPixels: 1024 * 1024, quality: 85)

    /// One photo to label.
    struct Photo: Encodable {
        /// The absolute path the manifests name.
        let path: String
        /// The photo type the blur manifest gives it.
        let type: String
        /// The 256 px thumbnail and the 1024 px view, nil when the photo did not decode.
        let thumb: String?, large: String?
        /// Displayed size.
        let width: Int?, height: Int?
        /// The current verdict, for reference while labelling (`passed` or the failure codes).
        let verdict: String
    }

    private struct PageData: Encodable {
        let id: String
        let generated: String
        let photos: [Photo]
    }

    private let folder: ReportFolder
    private var photos: [Photo] = []

    /// A page into the folder at `path`.
    init(path: String) throws {
        folder = try ReportFolder(path: path)
    }

    /// Adds the photo at `path` with its thumbnail and large view, if it decoded.
    mutating func add(path: String, output: LabellingVerdict, thumbnail: PreviewImage?, large: PreviewImage?) {
        let number = photos.count + 1
        func written(_ image: PreviewImage?, suffix: String) -> String? {
            guard let image else { return nil }
            do {
                return try folder.write(image, number: number, suffix: suffix)
            } catch {
                StandardStreams.error("photo-validator: label: \(path): preview not written: \(error)")
                return nil
            }
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        photos.append(Photo(path: (absolute as NSString).standardizingPath, type: output.type, thumb: written(thumbnail, suffix: ""),
                            large: written(large, suffix: "-1024"), width: output.width, height: output.height, verdict: output.verdict))
    }

    /// Writes `index.html` and returns its path. The page's id (for `localStorage`) is the folder's path.
    func write() throws -> String {
        let data = PageData(id: "photo-validator-labels:" + folder.url.standardizedFileURL.path,
                            generated: ISO8601DateFormatter().string(from: Date()), photos: photos)
        return try LabellingReportPage.page.write(into: folder, data: HTMLPage.encoder.encode(data))
    }
}
