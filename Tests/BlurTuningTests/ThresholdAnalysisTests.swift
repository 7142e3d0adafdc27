import Testing
import PhotoValidation
@testable import BlurTuning

private func scored(_ label: LabelledPhoto.Label, _ scores: [Double]) -> [ScoredPhoto] {
    scores.enumerated().map { ScoredPhoto(path: "\(label)-\($0.offset)", label: label, score: $0.element) }
}

@Suite("Threshold analysis", .timeLimit(.minutes(10)))
struct ThresholdAnalysisTests {
    @Test("perfectly separated labels: AUC 1 and a threshold between the groups")
    func separated() throws {
        let analysis = ThresholdAnalysis(photos: scored(.blurry, [2, 5, 9]) + scored(.sharp, [30, 80, 400]))
        #expect(analysis.rocAUC == 1)
        let best = try #require(analysis.recommended())
        #expect(best.threshold > 9 && best.threshold < 30)
        #expect(best.balancedAccuracy == 1 && best.precision == 1 && best.recall == 1 && best.f1 == 1)
        #expect(analysis.misjudged(at: best).isEmpty)
    }

    @Test("reversed labels give AUC 0, identical scores 0.5")
    func aucExtremes() {
        #expect(ThresholdAnalysis(photos: scored(.blurry, [50, 60]) + scored(.sharp, [1, 2])).rocAUC == 0)
        #expect(ThresholdAnalysis(photos: scored(.blurry, [10, 10]) + scored(.sharp, [10])).rocAUC == 0.5)
        #expect(ThresholdAnalysis(photos: scored(.sharp, [10])).rocAUC == nil)
    }

    @Test("a confusion matrix counts 'blurry' as called below the threshold")
    func confusion() {
        let photos = scored(.blurry, [5, 20]) + scored(.sharp, [10, 40])
        let matrix = ConfusionMatrix(threshold: 15, photos: photos)
        #expect(matrix.truePositives == 1 && matrix.falseNegatives == 1 && matrix.falsePositives == 1 && matrix.trueNegatives == 1)
        #expect(matrix.precision == 0.5 && matrix.recall == 0.5 && matrix.specificity == 0.5 && matrix.balancedAccuracy == 0.5)
    }

    @Test("the recall objective picks the lowest threshold reaching it; misjudged photos come worst first")
    func recallObjective() throws {
        let analysis = ThresholdAnalysis(photos: scored(.blurry, [1, 2, 3, 50]) + scored(.sharp, [10, 20, 30]))
        let lenient = try #require(analysis.recommended(.recall(0.75)))
        #expect(lenient.recall >= 0.75 && lenient.threshold < 10)
        let strict = try #require(analysis.recommended(.recall(1)))
        #expect(strict.threshold > 50)
        let best = try #require(analysis.recommended())
        #expect(analysis.misjudged(at: best).first?.score == 50)
    }
}
