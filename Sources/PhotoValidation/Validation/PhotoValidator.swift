import Admission
import BlurMetrics
import LumaAnalysis
import PhotoFormat
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
        measure(bytes, as: photoType).output
    }

    /// Validates the photo as `validate(_:as:)` does and returns what was measured too, for the
    /// scores cache to keep; nil measurements when the answer is not the photo's own (a library
    /// failure, a time limit, a crashed worker).
    public func measure(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        if let isolation {
            return isolation.measure(bytes, as: photoType)
        }
        let checked = measuredCheck(bytes, as: photoType, previews: nil)
        return (checked.output, checked.measurements)
    }

    /// Runs the checks in this process and, when `previews` is given and the photo passed them
    /// (or decoded at all, with `evenIfFailed`), makes its preview from the same decode (a second
    /// one only for a CMYK JPEG or a nearly square JPEG whose analysis scale is too small for it).
    func check(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, previews: PreviewBounds?, evenIfFailed: Bool = false
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        // The decoder started libvips when this validator was made, so the encoder cannot fail
        // here; if it did, the photo would get no preview, as in a decode worker.
        let encoder = previews.flatMap { try? PreviewEncoder(bounds: $0) }
        let checked = measuredCheck(bytes, as: photoType, previews: encoder, evenIfFailed: evenIfFailed)
        return (checked.output, checked.preview)
    }

    /// `check` in this process (whatever `isolation` says), with the measurements it judged (nil
    /// when they are not deterministic): what a decode worker runs. The photo is
    /// measured first, with this validator's blur threshold, then judged by `judgement`, the code
    /// that judges measurements read back from the scores cache. The decode may use `threads`
    /// threads (a HEIC's tiles) when they fit the memory budget.
    public func measuredCheck(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, previews: PreviewEncoder?, evenIfFailed: Bool = false, threads: Int = 1
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, measurements: PhotoMeasurements?) {
        let clock = ContinuousClock()
        let start = clock.now
        let minimumShortSide = settings.minimumShortSide(for: photoType)
        let threshold = settings.blurThreshold(for: photoType)
        var measurements = PhotoMeasurements(measuredBelow: threshold)
        var timings = StageTimings()

        // `image` and `secondImage` are the decodes a preview may be made from.
        func finish(_ image: EncodedImage?, _ secondImage: EncodedImage?)
            -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, measurements: PhotoMeasurements?) {
            timings.total = (clock.now - start).milliseconds
            let kept = measurements.isDeterministic ? measurements : nil
            // Measured with this threshold, the measurements always decide (`judge(_:as:)`).
            guard let judged = judgement(measurements, as: photoType, timings: timings) else {
                let failure = DecodeFailure(.libraryFailure, "the photo's measurements could not be judged (a bug: please report it)")
                return (failed(as: photoType, failure, after: clock.now - start), nil, nil)
            }
            var details = judged.details
            guard let previews, let chosen = judged.usedSecond ? secondImage : image, judged.failures.isEmpty || evenIfFailed else {
                return (ValidatePhotoOutput(failures: judged.failures, photoType: photoType, minimumShortSide: minimumShortSide, details: details), nil, kept)
            }
            // Only a photo that passed is shown to the content check.
            let previewStart = clock.now
            let preview = Result { () throws(DecodeFailure) in try chosen.preview(using: previews) }
            details.timingsMs.contentPreview = (clock.now - previewStart).milliseconds
            details.timingsMs.total = (clock.now - start).milliseconds
            return (ValidatePhotoOutput(failures: judged.failures, photoType: photoType, minimumShortSide: minimumShortSide, details: details), preview, kept)
        }
        func invalid(_ failure: DecodeFailure) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, measurements: PhotoMeasurements?) {
            measurements.error = failure.reason.rawValue
            measurements.errorDetail = failure.message
            return finish(nil, nil)
        }

        let image: EncodedImage
        do {
            image = try decoder.open(bytes)
        } catch {
            timings.header = (clock.now - start).milliseconds
            return invalid(error)
        }
        timings.header = (clock.now - start).milliseconds
        let header = image.header
        measurements.format = header.format.rawValue
        measurements.width = header.width
        measurements.height = header.height
        measurements.orientation = header.orientation
        measurements.shortestSide = header.shortestSide

        // Pixels are decoded even for a low-resolution photo: a truncated file must be
        // `invalid_image` alone, and one answer may carry both resolution and blur failures.
        // Colour is kept only when a preview may be made: a photo already too small gets none.
        let keeping = header.shortestSide >= minimumShortSide || evenIfFailed ? previews : nil
        var plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, preview: keeping, threads: threads)
        let measuring = BlurMeasurement.estimatedBytes(width: header.storedWidth, height: header.storedHeight, scale: settings.analysisScale)
        // Extra threads are a convenience: a decode they would push over the budget runs on one.
        if plan.threads > 1, plan.estimatedBytes + measuring > memoryBudget.capacity {
            plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, preview: keeping)
        }
        let needed = plan.estimatedBytes + measuring
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
        let first: BlurMeasurement
        do {
            first = try BlurMeasurement.measure(
                image, plan: plan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                crossingCorrected: blurOptions.crossingCorrected
            )
        } catch {
            return invalid(error)
        }
        measurements.first = BlurFigures(first, measuredBelow: threshold)
        var timed = first
        var secondImage: EncodedImage?
        // A JPEG decoded at a DCT scale down to the analysis size may have lost a pattern of a few
        // pixels' period there (4/8 turns a 4 px grid into a flat 2 px one): one that fails is
        // decoded again at twice the analysis size, whose finer plane holds it
        // (`AnalysisScale.decodeShortestSide`), and passes when either decode finds it sharp
        // (`judgement`). Photos that pass the first time pay nothing.
        if first.blurScore < threshold {
            measurements.secondSettled = true
            if let finerSide = settings.analysisScale.decodeShortestSide, let again = try? decoder.open(bytes) {
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
                        if let second = try? BlurMeasurement.measure(
                            again, plan: finerPlan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                            coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                            crossingCorrected: blurOptions.crossingCorrected
                        ) {
                            measurements.second = BlurFigures(second, measuredBelow: threshold)
                            timed = second.addingTime(of: first)
                            secondImage = again
                        }
                    }
                }
            }
        }
        timings.decode = timed.decodeSeconds * 1000
        timings.luma = timed.lumaSeconds * 1000
        timings.blur = timed.blurSeconds * 1000
        timings.exposure = timed.exposureSeconds * 1000
        timings.fingerprint = timed.fingerprintSeconds * 1000
        return finish(image, secondImage)
    }
}
