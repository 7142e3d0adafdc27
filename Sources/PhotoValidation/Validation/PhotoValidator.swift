import Admission
import BlurMetrics
import LumaAnalysis
import VipsDecoder

/// Runs the checks of the contract on one photo: decode, resolution, blur and exposure, in that order.
///
/// `validate` is synchronous and CPU-bound: call it on a long-lived worker thread (see
/// `ValidationWorkerPool`), never on a cooperative thread pool.
public struct PhotoValidator: Sendable {
    /// The thresholds and limits in force.
    public let settings: ValidationSettings
    /// Bounds the memory of decodes in flight across every thread using this validator, in bytes:
    /// a decode waits, on its worker thread, until its estimate fits beside the others.
    public let memoryBudget: WeightedSemaphore
    /// Where decodes run: nil for this process, else the sandboxed workers that run them.
    public let isolation: (any PhotoDecodeIsolation)?
    private let decoder: ImageDecoder

    /// Creates a validator that decodes in this process, or through `isolation` when given;
    /// starts libvips when needed.
    ///
    /// - Throws: `DecodeFailure` when libvips cannot be initialised.
    public init(settings: ValidationSettings, isolation: (any PhotoDecodeIsolation)? = nil) throws(DecodeFailure) {
        self.settings = settings
        self.memoryBudget = isolation?.memoryBudget ?? WeightedSemaphore(capacity: settings.decodeMemoryBudget)
        self.decoder = try ImageDecoder(pixelLimit: settings.pixelLimit, memoryLimit: settings.decodeMemoryBudget, costCaps: settings.decodeCostCaps)
        self.isolation = isolation
    }

    /// The same checks and settings, decoding in this process: what a decode worker runs.
    public var inProcess: PhotoValidator {
        PhotoValidator(settings: settings, memoryBudget: memoryBudget, decoder: decoder)
    }

    private init(settings: ValidationSettings, memoryBudget: WeightedSemaphore, decoder: ImageDecoder) {
        self.settings = settings
        self.memoryBudget = memoryBudget
        self.decoder = decoder
        self.isolation = nil
    }

    /// The answer for a photo whose decoder failed outside the photo's own checks (a worker that
    /// crashed, ran out of time or of memory): `invalid_image` with `failure`'s reason.
    public func failed(as photoType: PhotoType, _ failure: DecodeFailure, after elapsed: Duration) -> ValidatePhotoOutput {
        let minimumShortSide = settings.minimumShortSide(for: photoType)
        var details = ValidationDetails(photoType: photoType, minimumShortSide: minimumShortSide, blurThreshold: settings.blurThreshold(for: photoType))
        details.error = failure.reason.rawValue
        details.errorDetail = failure.message
        details.timingsMs.total = elapsed.milliseconds
        return ValidatePhotoOutput(failures: [.invalidImage], photoType: photoType, minimumShortSide: minimumShortSide, details: details)
    }

    /// The answer for a photo whose decode did not finish within `limit`: `invalid_image` with the
    /// reason `decode_timeout` (a file that takes that long is hostile or broken).
    public func timedOut(as photoType: PhotoType, after limit: Duration) -> ValidatePhotoOutput {
        let minimumShortSide = settings.minimumShortSide(for: photoType)
        var details = ValidationDetails(photoType: photoType, minimumShortSide: minimumShortSide, blurThreshold: settings.blurThreshold(for: photoType))
        details.error = DecodeFailure.Reason.decodeTimeout.rawValue
        details.errorDetail = "decoding did not finish within \(limit.seconds) s; the file is treated as unreadable"
        details.timingsMs.total = limit.milliseconds
        return ValidatePhotoOutput(failures: [.invalidImage], photoType: photoType, minimumShortSide: minimumShortSide, details: details)
    }

    /// Validates the encoded photo in `bytes` as a photo of `photoType`.
    public func validate(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType) -> ValidatePhotoOutput {
        if let isolation {
            return isolation.validate(bytes, as: photoType, previews: nil, evenIfFailed: false).output
        }
        return check(bytes, as: photoType, previews: nil).output
    }

    /// Runs the checks in this process and, when `previews` is given and the photo passed them
    /// (or decoded at all, with `evenIfFailed`), makes its preview from the same decode (JPEG,
    /// HEIC) or a second one (PNG, WebP).
    func check(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, previews: PreviewEncoder?, evenIfFailed: Bool = false
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        let clock = ContinuousClock()
        let start = clock.now
        let minimumShortSide = settings.minimumShortSide(for: photoType)
        let threshold = settings.blurThreshold(for: photoType)
        var details = ValidationDetails(photoType: photoType, minimumShortSide: minimumShortSide, blurThreshold: threshold)

        func answer(_ failures: [FailureCode]) -> ValidatePhotoOutput {
            details.timingsMs.total = (clock.now - start).milliseconds
            return ValidatePhotoOutput(failures: failures, photoType: photoType, minimumShortSide: minimumShortSide, details: details)
        }
        func invalid(_ failure: DecodeFailure) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
            details.error = failure.reason.rawValue
            details.errorDetail = failure.message
            return (answer([.invalidImage]), nil)
        }

        var image: EncodedImage
        do {
            image = try decoder.open(bytes)
        } catch {
            details.timingsMs.header = (clock.now - start).milliseconds
            return invalid(error)
        }
        details.timingsMs.header = (clock.now - start).milliseconds
        let header = image.header
        details.format = header.format.rawValue
        details.width = header.width
        details.height = header.height
        details.orientation = header.orientation

        var failures: [FailureCode] = []
        if header.shortestSide < minimumShortSide {
            failures.append(.lowResolution)
        }
        // Pixels are decoded even for a low-resolution photo: a truncated file must be
        // `invalid_image` alone, and one answer may carry both resolution and blur failures.
        // Colour is kept only when a preview may be made: a photo already too small gets none.
        let keeping = failures.isEmpty || evenIfFailed ? previews : nil
        let plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, preview: keeping)
        let needed = plan.estimatedBytes + BlurMeasurement.estimatedBytes(width: header.storedWidth, height: header.storedHeight, scale: settings.analysisScale)
        // A decode that can never fit is refused rather than queued.
        guard let firstReservation = try? memoryBudget.acquireBlocking(needed) else {
            return invalid(DecodeFailure(
                .memoryLimitExceeded,
                "decoding and measuring this \(header.storedWidth)x\(header.storedHeight) \(header.format.rawValue) needs about \(needed >> 20) MiB, "
                    + "over the decode memory budget of \(memoryBudget.capacity >> 20) MiB (decode_memory_mib)"
            ))
        }
        var reservation: WeightedSemaphore.Permit? = firstReservation
        defer { reservation?.release() }
        let blurOptions = (strongestShare: settings.blurStrongestShare(for: photoType), coarseWeight: settings.blurCoarseWeight(for: photoType),
                           crossingCorrected: settings.blurCrossingCorrected(for: photoType))
        var measurement: BlurMeasurement
        do {
            measurement = try BlurMeasurement.measure(
                image, plan: plan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                crossingCorrected: blurOptions.crossingCorrected
            )
        } catch {
            return invalid(error)
        }
        // A JPEG decoded at a DCT scale down to the analysis size may have lost a pattern of a few
        // pixels' period there (4/8 turns a 4 px grid into a flat 2 px one): one that fails is
        // decoded again at twice the analysis size, whose finer plane holds it
        // (`AnalysisScale.decodeShortestSide`), and passes when either decode finds it sharp. Photos
        // that pass the first time pay nothing.
        if measurement.blurScore < threshold, let finerSide = settings.analysisScale.decodeShortestSide,
           let again = try? decoder.open(bytes) {
            let finerPlan = again.plan(targetShortSide: finerSide, preview: keeping)
            if finerPlan.scaleNumerator > plan.scaleNumerator {
                let neededAgain = finerPlan.estimatedBytes
                    + BlurMeasurement.estimatedBytes(width: header.storedWidth, height: header.storedHeight, scale: settings.analysisScale)
                // The first decode's memory is given back before the second is waited for, so
                // no decode holds a reservation while it waits for another.
                reservation?.release()
                reservation = nil
                if let permit = try? memoryBudget.acquireBlocking(neededAgain) {
                    reservation = permit
                    let first = measurement
                    do {
                        let second = try BlurMeasurement.measure(
                            again, plan: finerPlan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                            coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                crossingCorrected: blurOptions.crossingCorrected
                        )
                        if second.blurScore > first.blurScore {
                            measurement = second.addingTime(of: first)
                            image = again
                        } else {
                            measurement = first.addingTime(of: second)
                        }
                    } catch {
                        measurement = first
                    }
                }
            }
        }
        details.laplacianVariance = measurement.laplacianVariance
        details.blurScore = measurement.blurScore
        details.blurScale = measurement.scales.plane.rawValue
        details.analysisBlurScore = measurement.scales.plane == .analysis ? nil : measurement.scales.analysisScore
        details.blurDetailRetained = measurement.scales.retainedDetail
        details.analysisWidth = measurement.analysisWidth
        details.analysisHeight = measurement.analysisHeight
        details.decodeScale = measurement.decodeScale
        details.timingsMs.decode = measurement.decodeSeconds * 1000
        details.timingsMs.luma = measurement.lumaSeconds * 1000
        details.timingsMs.blur = measurement.blurSeconds * 1000
        details.timingsMs.exposure = measurement.exposureSeconds * 1000
        details.timingsMs.fingerprint = measurement.fingerprintSeconds * 1000
        details.exposure = measurement.exposure
        details.fingerprint = measurement.fingerprint.base64
        if measurement.blurScore < threshold {
            failures.append(.blurry)
        }
        if settings.exposure.enabled {
            switch settings.exposure.verdict(on: measurement.exposure) {
            case .usable: break
            case .tooDark: failures.append(.tooDark)
            case .overexposed: failures.append(.overexposed)
            }
        }
        guard let previews, failures.isEmpty || evenIfFailed else {
            return (answer(failures), nil)
        }
        // Only a photo that passed is shown to the content check.
        let previewStart = clock.now
        let preview = Result { () throws(DecodeFailure) in try image.preview(using: previews) }
        details.timingsMs.contentPreview = (clock.now - previewStart).milliseconds
        return (answer(failures), preview)
    }
}
