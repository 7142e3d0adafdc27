import PhotoValidation

/// Counts of a `validate` run by outcome and failure code.
struct BatchSummary: Sendable {
    /// Photos that passed.
    private(set) var passed = 0
    /// Photos that failed at least one check.
    private(set) var failed = 0
    /// Files that could not be read, and paths that could not be walked.
    private(set) var errors = 0
    /// Files in folders that were not validated (not images, or left out by the globs).
    var skipped = 0
    /// Failures by code.
    private(set) var failuresByCode: [FailureCode: Int] = [:]

    /// Counts one result.
    mutating func add(_ output: ValidatePhotoOutput) {
        if output.passed { passed += 1 } else { failed += 1 }
        for code in output.failures { failuresByCode[code, default: 0] += 1 }
    }

    /// Counts one file or folder that could not be read.
    mutating func addError() {
        errors += 1
    }

    /// 0 when every photo passed, 1 when any failed, 2 when anything could not be read.
    var exitCode: Int32 {
        if errors > 0 { return 2 }
        return failed > 0 ? 1 : 0
    }

    /// One line such as `12 photos: 9 passed, 3 failed (blurry 2, low_resolution 1); 0 unreadable; 2 skipped (not images)`.
    var line: String {
        let codes = FailureCode.allCases.compactMap { code in
            failuresByCode[code].map { "\(code.rawValue) \($0)" }
        }
        let breakdown = codes.isEmpty ? "" : " (" + codes.joined(separator: ", ") + ")"
        let count = passed + failed
        let skippedPart = skipped == 0 ? "" : "; \(skipped) skipped (not images)"
        return "\(count) \(count == 1 ? "photo" : "photos"): \(passed) passed, \(failed) failed\(breakdown); \(errors) unreadable\(skippedPart)"
    }
}
