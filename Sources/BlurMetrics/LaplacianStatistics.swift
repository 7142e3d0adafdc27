/// Exact integer sums of the 4-neighbour Laplacian over a plane, and the variance they give.
public struct LaplacianStatistics: Sendable, Equatable {
    /// Number of pixels.
    public let count: Int
    /// Sum of the Laplacian responses.
    public let sum: Int64
    /// Sum of the squared Laplacian responses.
    public let sumOfSquares: Int64

    /// Creates statistics from sums.
    public init(count: Int, sum: Int64, sumOfSquares: Int64) {
        self.count = count
        self.sum = sum
        self.sumOfSquares = sumOfSquares
    }

    /// The population variance (divided by N), computed exactly before the final division.
    public var variance: Double {
        guard count > 0 else { return 0 }
        let n = Int128(count)
        let numerator = n * Int128(sumOfSquares) - Int128(sum) * Int128(sum)
        return Double(numerator) / (Double(count) * Double(count))
    }
}
