import BlurModel
import Foundation

extension ValidationSettings {
    /// Bumped whenever a change to the decoders or the measures changes what a photo measures, so
    /// measurements kept by an older build are not read as this one's. 2: fingerprints of
    /// version 3 (at most 8 KB), and none when no duplicate check read them. 3: a photo under
    /// 1024 px on its long side scored magnified to 1024 px (issue 48's label). 4: the blur model's
    /// probability and tiles (issue 64).
    public static let measurementsVersion = 4

    /// The settings that shape what a `photoType` photo measures (analysis scale, the blur
    /// measure's options for the type, the blur model's version, pixel limit, decode memory budget and cost caps), as one
    /// stable string: with the photo's content hash, the key of the scores cache. Thresholds are
    /// not in it: `PhotoValidator.judge(_:as:)` applies them to measurements from any run.
    public func measurementKey(for photoType: PhotoType) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let caps = (try? encoder.encode(decodeCostCaps)).map { String(decoding: $0, as: UTF8.self) } ?? "\(decodeCostCaps)"
        return [
            "v\(Self.measurementsVersion)", "type=\(photoType.rawValue)", "analysis=\(analysisScale)",
            "share=\(blurStrongestShare(for: photoType))", "coarse=\(blurCoarseWeight(for: photoType))",
            "crossing=\(blurCrossingCorrected(for: photoType))", "model=\(BlurModel.shipped.version)", "pixels=\(pixelLimit)", "memory=\(decodeMemoryBudget)", "caps=\(caps)",
        ].joined(separator: ";")
    }
}
