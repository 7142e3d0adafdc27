import Admission
import ImageCodecs
import PhotoFormat
import PhotoValidation

/// The checks of the contract run in this process: decode, resolution, blur and exposure, in
/// that order, with the decoder (libvips, libjpeg, FFmpeg) started when this is made. What a
/// decode worker runs (`DecodeWorkerHost`), and what `PhotoValidator(settings:)` decodes with.
///
/// Synchronous and CPU-bound: call it on a long-lived worker thread, never on a cooperative
/// thread pool.
public struct InProcessChecks: PhotoDecoding {
    /// The thresholds and limits in force.
    public let settings: ValidationSettings
    /// Bounds the memory of decodes in flight across every thread using these checks, in bytes:
    /// a decode waits, on its worker thread, until its estimate fits beside the others.
    public let budget: WeightedSemaphore
    // Internal, not private: `InProcessChecks+Bench` times parts of the same decoder.
    let decoder: ImageDecoder

    /// Checks with `settings`; starts libvips when it is not running yet.
    ///
    /// - Throws: `DecodeFailure` when libvips cannot be initialised.
    public init(settings: ValidationSettings) throws(DecodeFailure) {
        self.settings = settings
        self.budget = WeightedSemaphore(capacity: settings.decodeMemoryBudget)
        self.decoder = try ImageDecoder(pixelLimit: settings.pixelLimit, memoryLimit: settings.decodeMemoryBudget, costCaps: settings.decodeCostCaps)
    }

    /// The budget every decode of these checks reserves from.
    public var memoryBudget: WeightedSemaphore? { budget }

    /// Frees the decoder's per-thread buffers on the calling thread (a no-op when it has none).
    public func releaseThreadResources() {
        VipsRuntime.releaseThreadResources()
    }

    /// Runs the checks and, when `previews` is given and the photo passed them (or decoded at all,
    /// with `evenIfFailed`), makes its preview from the same decode (a second one only for a CMYK
    /// JPEG or a nearly square JPEG whose analysis scale is too small for it). A decode in this
    /// process cannot be ended, so `deadline` is the worker pool's to keep; the photo decodes on
    /// one thread, so `waitingPhotos` changes nothing.
    public func validate(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, previews: PreviewBounds?, evenIfFailed: Bool, fingerprint: Bool,
        deadline: ContinuousClock.Instant? = nil, waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        let checked = measuredCheck(bytes, as: photoType, previews: previews, evenIfFailed: evenIfFailed, fingerprint: fingerprint)
        return (checked.output, checked.preview)
    }

    /// Runs the checks and returns what was measured too (nil when not deterministic).
    public func measure(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, fingerprint: Bool, deadline: ContinuousClock.Instant? = nil, waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        let checked = measuredCheck(bytes, as: photoType, previews: nil, fingerprint: fingerprint)
        return (checked.output, checked.measurements)
    }

    /// The checks with the measurements they judged (nil when they are not deterministic) and the
    /// preview within `previews`: what a decode worker runs. The photo is measured first, with
    /// the blur threshold of `settings`, then judged by `ValidationSettings.judgement`, the code
    /// that judges measurements read back from the scores cache. The photo may use `threads`
    /// threads: a HEIC's tiles, another format's analysis plane built from each strip while the
    /// next is decoded, and the blur score beside the exposure and fingerprint figures, when
    /// they fit the memory budget. The fingerprint is made only with `fingerprint` (a duplicate
    /// check or the caller reads it).
    public func measuredCheck(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, previews: PreviewBounds?, evenIfFailed: Bool = false, threads: Int = 1,
        fingerprint: Bool = true
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, measurements: PhotoMeasurements?) {
        // The decoder started libvips when these checks were made, so the encoder cannot fail
        // here; if it did, the photo would get no preview.
        let encoder = previews.flatMap { try? PreviewEncoder(bounds: $0) }
        return measuredCheck(bytes, as: photoType, encoder: encoder, evenIfFailed: evenIfFailed, threads: threads, fingerprint: fingerprint)
    }

    private func measuredCheck(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, encoder previews: PreviewEncoder?, evenIfFailed: Bool, threads: Int,
        fingerprint fingerprinting: Bool
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
            guard let judged = settings.judgement(measurements, as: photoType, timings: timings) else {
                let failure = DecodeFailure(.libraryFailure, "the photo's measurements could not be judged (a bug: please report it)")
                return (settings.answer(for: failure, as: photoType, after: clock.now - start), nil, nil)
            }
            var details = judged.details
            // The preview comes from whichever decode kept its colour, the one judged first: the
            // finer decode keeps none when the first did.
            let judgedFirst = judged.usedSecond ? [secondImage, image] : [image, secondImage]
            let preferred = judgedFirst.compactMap { $0 }.first { $0.keptPreviewPixels } ?? (judged.usedSecond ? secondImage : image)
            guard let previews, let chosen = preferred, judged.failures.isEmpty || evenIfFailed else {
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
            // Every decode (and preview) of the photo ends before this returns, while `bytes` are
            // still the caller's: they are read in place (in a worker, in its shared memory), not copied.
            image = try decoder.open(bytes, copying: false)
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
        // The strips handed to the second thread (none for a HEIC, whose tile threads build the
        // plane themselves), as wide as the decode makes them: a JPEG's at its DCT scale.
        let decodedWidth = (header.storedWidth * plan.scaleNumerator + 7) / 8
        let pipelineBytes = image.spreadsOverThreads ? 0 : PlaneMeasurement.pipelineBytes(width: decodedWidth)
        var threads = threads
        // Extra threads are a convenience: a decode they would push over the budget runs on one.
        if threads > 1, Self.memoryNeed(plan, header: header, scale: settings.analysisScale) + pipelineBytes > budget.capacity {
            plan = image.plan(targetShortSide: settings.analysisScale.targetShortestSide, preview: keeping)
            threads = 1
        }
        let needed = Self.memoryNeed(plan, header: header, scale: settings.analysisScale) + (threads > 1 ? pipelineBytes : 0)
        // A decode that can never fit is refused rather than queued.
        guard let firstReservation = try? budget.acquireBlocking(needed) else {
            return invalid(DecodeFailure(
                .memoryLimitExceeded,
                "decoding and measuring this \(header.storedWidth)x\(header.storedHeight) \(header.format.rawValue) needs about \(needed >> 20) MiB, "
                    + "over the decode memory budget of \(budget.capacity >> 20) MiB (decode_memory_mib)"
            ))
        }
        var reservation: WeightedSemaphore.Permit? = firstReservation
        defer { reservation?.release() }
        let blurOptions = (strongestShare: settings.blurStrongestShare(for: photoType), coarseWeight: settings.blurCoarseWeight(for: photoType),
                           crossingCorrected: settings.blurCrossingCorrected(for: photoType))
        let first: PlaneMeasurement
        do {
            first = try PlaneMeasurement.measure(
                image, plan: plan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                crossingCorrected: blurOptions.crossingCorrected, threads: threads, fingerprinting: fingerprinting
            )
        } catch {
            return invalid(error)
        }
        measurements.first = PlaneFigures(first, measuredBelow: threshold)
        var timed = first
        var secondImage: EncodedImage?
        // A JPEG decoded at a DCT scale down to the analysis size may have lost a pattern of a few
        // pixels' period there (4/8 turns a 4 px grid into a flat 2 px one): one that fails is
        // decoded again at more than twice the analysis size, whose finer plane holds it
        // (`AnalysisScale.decodeShortestSide`), and passes when either decode finds it sharp
        // (`judgement`). Photos that pass the first time pay nothing, and so do photos the blur
        // model judges (`blur.judge = model`), which read the first decode's plane alone.
        if first.blurScore < threshold, !(settings.blurJudge == .model && first.blurModel != nil) {
            measurements.secondSettled = true
            if let finerSide = settings.analysisScale.decodeShortestSide, let again = try? decoder.open(bytes, copying: false) {
                // Colour kept by the first decode serves the preview whichever decode is judged.
                let finerPlan = again.plan(targetShortSide: finerSide, preview: plan.keepsPreview ? nil : keeping)
                if finerPlan.scaleNumerator > plan.scaleNumerator {
                    // As for the first decode: threads only where their strips fit beside it, so
                    // that idle cores never cost a photo its second look.
                    let finerNeed = Self.memoryNeed(finerPlan, header: header, scale: settings.analysisScale)
                    let secondThreads = finerNeed + pipelineBytes > budget.capacity ? 1 : threads
                    let neededAgain = finerNeed + (secondThreads > 1 ? pipelineBytes : 0)
                    // The first decode's memory is given back before the second is waited for, so
                    // no decode holds a reservation while it waits for another.
                    reservation?.release()
                    reservation = nil
                    if let permit = try? budget.acquireBlocking(neededAgain) {
                        reservation = permit
                        if let second = try? PlaneMeasurement.measure(
                            again, plan: finerPlan, scale: settings.analysisScale, strongestShare: blurOptions.strongestShare,
                            coarseWeight: blurOptions.coarseWeight, finerBelow: threshold,
                            crossingCorrected: blurOptions.crossingCorrected, threads: secondThreads,
                            fingerprinting: fingerprinting, fingerprint: first.fingerprint
                        ) {
                            measurements.second = PlaneFigures(second, measuredBelow: threshold)
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
