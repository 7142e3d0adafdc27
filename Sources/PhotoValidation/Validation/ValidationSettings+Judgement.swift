import BlurMetrics

extension ValidationSettings {
    /// The failures and details `measurements` earn as `photoType`, and whether the second
    /// decode's figures were chosen; nil as `PhotoValidator.judge(_:as:)` says. The in-process
    /// checks (`InProcessChecks`) judge their own measurements with this, so a cached answer is the same code's.
    package func judgement(
        _ measurements: PhotoMeasurements, as photoType: PhotoType, timings: StageTimings
    ) -> (failures: [FailureCode], details: ValidationDetails, usedSecond: Bool)? {
        let minimumShortSide = minimumShortSide(for: photoType)
        let threshold = blurThreshold(for: photoType)
        var details = ValidationDetails(photoType: photoType, minimumShortSide: minimumShortSide, blurThreshold: threshold)
        details.timingsMs = timings
        details.format = measurements.format
        details.width = measurements.width
        details.height = measurements.height
        details.orientation = measurements.orientation
        if let error = measurements.error {
            details.error = error
            details.errorDetail = measurements.errorDetail
            return ([.invalidImage], details, false)
        }
        guard let shortestSide = measurements.shortestSide, let first = measurements.first?.judged(below: threshold) else { return nil }
        var failures: [FailureCode] = shortestSide < minimumShortSide ? [.lowResolution] : []
        // The blur model judges the first decode's analysis plane, when it had a tile; the score
        // decides otherwise.
        let probabilityThreshold = blurProbabilityThreshold(for: photoType)
        let modelDecides = blurJudge == .model && first.blurProbability != nil
        // A photo that fails the first decode's score is judged by the second decode's too
        // (`check`), and passes when either finds it sharp.
        var chosen = first
        var usedSecond = false
        if first.score < threshold, !modelDecides {
            guard measurements.secondSettled else { return nil }
            if let measured = measurements.second {
                guard let second = measured.judged(below: threshold) else { return nil }
                if second.score > first.score {
                    chosen = second
                    usedSecond = true
                }
            }
        }
        details.laplacianVariance = chosen.laplacianVariance
        details.blurProbability = first.blurProbability
        details.blurTileMap = first.blurTileMap
        details.blurProbabilityThreshold = probabilityThreshold
        details.blurScore = chosen.score
        details.blurScale = (chosen.finerScore == nil ? ScaleAwareBlurScore.Plane.analysis : .finer).rawValue
        details.analysisBlurScore = chosen.finerScore == nil ? nil : chosen.analysisScore
        details.blurDetailRetained = chosen.retainedDetail
        details.analysisWidth = chosen.analysisWidth
        details.analysisHeight = chosen.analysisHeight
        details.decodeScale = chosen.decodeScale
        details.exposure = chosen.exposure
        details.fingerprint = chosen.fingerprint
        let blurry = if modelDecides, let probability = first.blurProbability { probability >= probabilityThreshold } else { chosen.score < threshold }
        if blurry {
            failures.append(.blurry)
        }
        if exposure.enabled {
            switch exposure.verdict(on: chosen.exposure) {
            case .usable: break
            case .tooDark: failures.append(.tooDark)
            case .overexposed: failures.append(.overexposed)
            }
        }
        return (failures, details, usedSecond)
    }
}
