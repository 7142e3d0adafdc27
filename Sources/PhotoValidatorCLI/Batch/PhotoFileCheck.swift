import ContentCheck
import Foundation
import PhotoFormat
import PhotoValidation
import ValidationThreads

/// Reads and validates one photo file on the worker pool, within the pool's default timeout, then
/// (with a classifier) runs the content check from the calling task: what `validate` and `tune`
/// do per file.
struct PhotoFileCheck: Sendable {
    /// Files larger than this are skipped without being read.
    static let maximumFileSize = 256 << 20

    /// The result of one file: validated, or not readable at all.
    enum Outcome: Sendable {
        /// The validator's answer (which may itself be `invalid_image`) and, when thumbnails were
        /// asked for and the photo decoded, its thumbnail made from the same decode.
        case validated(ValidatePhotoOutput, thumbnail: PreviewImage? = nil)
        /// The file could not be read, or the check could not run; the reason says which.
        case unreadable(String)
    }

    /// A file read and checked on a worker, before the content check.
    private enum Prepared: Sendable {
        case prepared(PreparedPhoto)
        case thumbnailed(ValidatePhotoOutput, PreviewImage?)
        case judged(ValidatePhotoOutput)
        case unreadable(String)
    }

    /// The validator.
    let validator: PhotoValidator
    /// The content check, or nil when it is off.
    let classifier: ContentClassifier?
    /// The workers that run the decodes.
    let pool: ValidationThreadPool
    /// Measurements kept from earlier runs, or nil. Not read with the content check, which needs
    /// each passed photo's pixels for its preview.
    var scoresCache: ScoresCache? = nil
    /// The bounds of a thumbnail made of every photo that decodes, passed or not, for a report
    /// (`--report`), or nil. Not made with the content check, whose preview the decode makes
    /// instead; the scores cache is not read with them, since a cached photo is not decoded.
    var thumbnails: PreviewBounds? = nil
    /// Whether each photo's fingerprint is made (a duplicate check reads it; off, its time is saved).
    var fingerprints = true

    /// Checks the file at `path` as a `photoType` photo.
    func check(path: String, as photoType: PhotoType) async -> Outcome {
        let validator = validator, classifier = classifier
        let thumbnails = classifier == nil ? thumbnails : nil, fingerprints = fingerprints
        let scoresCache = classifier == nil && thumbnails == nil ? scoresCache : nil
        do {
            // The job's deadline goes to the decode, so a worker is killed before the pool gives up on it.
            let prepared: Prepared = try await pool.run { deadline in
                let bytes: Data
                do {
                    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
                    guard size <= Self.maximumFileSize else {
                        return .unreadable("file is \(size >> 20) MiB, over the \(Self.maximumFileSize >> 20) MiB limit for validate; skipped")
                    }
                    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    return .unreadable("cannot read the file (\(PhotoCollector.reason(error)))")
                }
                if let thumbnails {
                    let checked = bytes.withUnsafeBytes { validator.validateAndPreview($0, as: photoType, previews: thumbnails, deadline: deadline) }
                    return .thumbnailed(checked.output, try? checked.preview?.get())
                }
                if let scoresCache {
                    return .judged(bytes.withUnsafeBytes { scoresCache.validate($0, as: photoType, with: validator, fingerprint: fingerprints, deadline: deadline) })
                }
                return .prepared(bytes.withUnsafeBytes { bytes in
                    PreparedPhoto(validator.validate(bytes, as: photoType, previews: classifier?.previewBounds(for: photoType), fingerprint: fingerprints,
                                                    deadline: deadline), of: bytes)
                })
            }
            switch prepared {
            case .unreadable(let reason):
                return .unreadable(reason)
            case .judged(let output):
                return .validated(output)
            case .thumbnailed(let output, let thumbnail):
                return .validated(output, thumbnail: thumbnail)
            case .prepared(let photo):
                guard let classifier else { return .validated(photo.output) }
                return .validated(await classifier.finish(photo).output)
            }
        } catch ThreadPoolError.timedOut {
            return .validated(validator.timedOut(as: photoType, after: pool.defaultTimeout))
        } catch {
            return .unreadable("not validated: \(error)")
        }
    }
}
