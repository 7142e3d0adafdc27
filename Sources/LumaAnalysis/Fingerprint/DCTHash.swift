import BlurMetrics
import Foundation

/// A perceptual hash: the signs of a plane's lowest DCT frequencies against their median,
/// computed for the plane's four rotations from one transform.
enum DCTHash {
    /// The side of the square the plane is averaged down to.
    static let side = 32
    /// The side of the block of low frequencies the hash keeps (its DC term left out).
    static let kept = 8

    /// The hash of `plane` rotated by 0, 90, 180 and 270 degrees.
    static func rotationHashes(of plane: LumaPlane) -> [UInt64] {
        rotationHashes(ofQuarter: QuarterPlane.of(plane))
    }

    /// The four rotations' hashes from the plane's `QuarterPlane` (`quarter`).
    static func rotationHashes(ofQuarter quarter: LumaPlane) -> [UInt64] {
        let small = averaged(quarter, within: ContentBounds(of: quarter))
        let coefficients = transform(small)
        // Rotating a square by 90 degrees transposes its DCT and flips the sign of odd rows or
        // columns; so each rotation's coefficients follow from the one transform.
        return (0..<4).map { rotation in
            var values = [Double](repeating: 0, count: kept * kept)
            for u in 0..<kept {
                for v in 0..<kept {
                    let (row, column, sign): (Int, Int, Double)
                    switch rotation {
                    case 0: (row, column, sign) = (u, v, 1)
                    case 1: (row, column, sign) = (v, u, v % 2 == 0 ? 1 : -1)
                    case 2: (row, column, sign) = (u, v, (u + v) % 2 == 0 ? 1 : -1)
                    default: (row, column, sign) = (v, u, u % 2 == 0 ? 1 : -1)
                    }
                    values[u * kept + v] = sign * coefficients[row * side + column]
                }
            }
            return hash(values)
        }
    }

    /// One bit per kept coefficient but the DC term: set when it is above the median.
    private static func hash(_ values: [Double]) -> UInt64 {
        let ac = Array(values.dropFirst())
        let median = ac.sorted()[ac.count / 2]
        var hash: UInt64 = 0
        for (index, value) in ac.enumerated() where value > median {
            hash |= 1 << UInt64(index)
        }
        return hash
    }

    /// The `bounds` of the plane averaged down to `side` x `side` (each output the mean of its area).
    static func averaged(_ plane: LumaPlane, within bounds: ContentBounds) -> [Double] {
        let width = bounds.columns.count, height = bounds.rows.count
        var sums = [Double](repeating: 0, count: side * side)
        var counts = [Double](repeating: 0, count: side * side)
        let columnCell = (0..<width).map { $0 * side / width }
        // Cells take runs of columns in order, so each row's cell sums run over plain ranges in a register
        // (adding into a per-cell slot made each sample wait for the previous one's store).
        var cellEnd = [Int](repeating: 0, count: side)
        for x in 0..<width { cellEnd[columnCell[x]] = x + 1 }
        var end = 0
        for cell in 0..<side { end = max(end, cellEnd[cell]); cellEnd[cell] = end }
        plane.pixels.withUnsafeBufferPointer { pixels in
            cellEnd.withUnsafeBufferPointer { cellEnd in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        let row = y * side / height * side
                        let start = pixels.baseAddress! + (bounds.rows.lowerBound + y) * plane.width + bounds.columns.lowerBound
                        var x = 0
                        for cell in 0..<side {
                            var sum: UInt32 = 0
                            while x < cellEnd[cell] { sum &+= UInt32(start[x]); x &+= 1 }
                            sums[row + cell] += Double(sum)
                        }
                    }
                }
            }
        }
        var columns = [Double](repeating: 0, count: side)
        for cell in columnCell { columns[cell] += 1 }
        var rows = [Double](repeating: 0, count: side)
        for y in 0..<height { rows[y * side / height] += 1 }
        for y in 0..<side {
            for x in 0..<side { counts[y * side + x] = rows[y] * columns[x] }
        }
        return zip(sums, counts).map { $1 > 0 ? $0 / $1 : 0 }
    }

    /// The orthonormal 2-D DCT-II of a `side` x `side` square, only the lowest `kept` frequencies each way.
    private static func transform(_ square: [Double]) -> [Double] {
        var basis = [Double](repeating: 0, count: kept * side)
        for frequency in 0..<kept {
            // Orthonormal scaling weighs the zero frequency apart from the others, which moves the median.
            let scale = (frequency == 0 ? 1 : 2).squareRoot() / Double(side).squareRoot()
            for position in 0..<side {
                basis[frequency * side + position] = scale * cos(Double.pi * Double(frequency) * (Double(position) + 0.5) / Double(side))
            }
        }
        var rows = [Double](repeating: 0, count: side * kept)
        for y in 0..<side {
            for v in 0..<kept {
                var sum = 0.0
                for x in 0..<side { sum += square[y * side + x] * basis[v * side + x] }
                rows[y * kept + v] = sum
            }
        }
        var result = [Double](repeating: 0, count: side * side)
        for u in 0..<kept {
            for v in 0..<kept {
                var sum = 0.0
                for y in 0..<side { sum += rows[y * kept + v] * basis[u * side + y] }
                result[u * side + v] = sum
            }
        }
        return result
    }
}
