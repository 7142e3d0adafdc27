/// Where each displayed pixel of a HEIC picture comes from in the assembled (stored) picture: the
/// file's `clap` crops, `irot` quarter turns and `imir` mirrors, applied in the order the file
/// lists them, folded into one map `source = A * displayed + b` with `A` a signed permutation.
package struct PixelTransform: Equatable {
    /// Width of the displayed picture.
    package private(set) var width: Int
    /// Height of the displayed picture.
    package private(set) var height: Int
    /// The map's matrix, row-major: source x = a * x + b * y + c, source y = d * x + e * y + f.
    private(set) var a = 1, b = 0, c = 0, d = 0, e = 1, f = 0

    /// The identity on a `width` x `height` picture.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// True when rows of the displayed picture are columns of the stored one.
    package var isTransposed: Bool { a == 0 }
    /// True when nothing is cropped, turned or mirrored.
    package var isIdentity: Bool { a == 1 && b == 0 && c == 0 && d == 0 && e == 1 && f == 0 }

    /// Composes `displayed = op(current)` where `current(x, y)` is read at `m * (x, y) + t`.
    private mutating func compose(_ m00: Int, _ m01: Int, _ m10: Int, _ m11: Int, _ t0: Int, _ t1: Int, width: Int, height: Int) {
        let (a, b, c, d, e, f) = (self.a, self.b, self.c, self.d, self.e, self.f)
        self.a = a * m00 + b * m10
        self.b = a * m01 + b * m11
        self.c = a * t0 + b * t1 + c
        self.d = d * m00 + e * m10
        self.e = d * m01 + e * m11
        self.f = d * t0 + e * t1 + f
        self.width = width
        self.height = height
    }

    /// Turns the picture a quarter anticlockwise (`irot` angle 1).
    mutating func rotateAnticlockwise() {
        // Output (x, y) is input (width - 1 - y, x).
        compose(0, -1, 1, 0, width - 1, 0, width: height, height: width)
    }

    /// Mirrors about a vertical axis (`imir` axis 0: left and right swap) or a horizontal one (axis 1).
    mutating func mirror(verticalAxis: Bool) {
        if verticalAxis {
            compose(-1, 0, 0, 1, width - 1, 0, width: width, height: height)
        } else {
            compose(1, 0, 0, -1, 0, height - 1, width: width, height: height)
        }
    }

    /// Keeps `width` x `height` pixels from (`left`, `top`) of the current picture.
    mutating func crop(left: Int, top: Int, width: Int, height: Int) {
        compose(1, 0, 0, 1, left, top, width: width, height: height)
    }

    /// The stored coordinates of displayed pixel (`x`, `y`).
    package func source(x: Int, y: Int) -> (x: Int, y: Int) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// Writes displayed rows `rows` into `strip` (rows `width * bands` bytes apart), reading a stored
    /// picture of `storedWidth` pixels per row of `bands` interleaved samples at `plane`.
    package func copyRows(
        _ rows: Range<Int>, from plane: UnsafePointer<UInt8>, storedWidth: Int, bands: Int,
        into strip: UnsafeMutablePointer<UInt8>
    ) {
        // Byte steps in the stored plane for one displayed pixel to the right and one row down.
        let stepX = (a + d * storedWidth) * bands
        let stepY = (b + e * storedWidth) * bands
        let origin = (c + f * storedWidth) * bands
        let outputStride = width * bands
        if !isTransposed {
            for (offset, y) in rows.enumerated() {
                let start = plane + origin + y * stepY
                let output = strip + offset * outputStride
                if stepX == bands {
                    output.update(from: start, count: outputStride)
                } else {
                    for x in 0..<width {
                        for band in 0..<bands {
                            output[x * bands + band] = start[x * stepX + band]
                        }
                    }
                }
            }
            return
        }
        // Transposed: consecutive displayed rows are neighbouring stored samples, so walk the strip
        // column by column to read the stored picture row by row.
        for x in 0..<width {
            let column = plane + origin + x * stepX
            for (offset, y) in rows.enumerated() {
                let output = strip + offset * outputStride + x * bands
                let input = column + y * stepY
                for band in 0..<bands {
                    output[band] = input[band]
                }
            }
        }
    }
}
