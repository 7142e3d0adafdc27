import ArgumentParser

/// Which check `tune` measures (`--check`).
enum TunedCheck: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The blur thresholds, on a set labelled sharp or blurry.
    case blur
    /// The blur model's probability thresholds (`blur.judge = model`), on the same sets.
    case blurModel = "blur-model"
    /// The exposure thresholds, on a set labelled usable, too_dark or overexposed.
    case exposure
    /// The duplicate check's fingerprint distance, on pairs labelled duplicate or distinct.
    case duplicates
}
