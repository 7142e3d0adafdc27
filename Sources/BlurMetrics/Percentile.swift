/// Percentiles by linear interpolation between order statistics (numpy's default method).
public enum Percentile {
    /// The `percentile` (0-100) of `sorted`, which must be sorted and not empty.
    public static func linear(_ sorted: [Double], _ percentile: Double) -> Double {
        precondition(!sorted.isEmpty, "a percentile of nothing")
        let position = percentile / 100 * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}
