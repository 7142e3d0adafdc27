extension LumaPlane {
    /// The plane's total squared central-difference gradient, horizontal plus vertical
    /// (`(L[x+1] - L[x-1])^2 + (L[y+1] - L[y-1])^2` summed over the interior), estimated from every
    /// `rowStep`-th row and scaled up to the whole plane.
    ///
    /// Central differences do not respond at the Nyquist frequency, so a pattern that area
    /// resampling folded to two-pixel alternation counts for nothing; for detail a plane holds,
    /// the total is nearly the same at any scale (each pixel's gradient grows with the scale
    /// factor as the pixel count falls with its square). Comparing the totals of one photo at two
    /// scales tells how much of its detail the coarser one kept.
    public func gradientEnergy(rowStep: Int = 4) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        let step = max(1, rowStep)
        var total: Int64 = 0
        var rows = 0
        pixels.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var y = 1
            while y < height - 1 {
                let above = base + (y - 1) * width, center = base + y * width, below = base + (y + 1) * width
                var sum: Int64 = 0
                var x = 1
                // 16 samples per step in 32-bit lanes: a row of 16 squares of at most 255^2 twice.
                while x + 16 <= width - 1 {
                    func load(_ row: UnsafePointer<UInt8>, _ offset: Int) -> SIMD16<Int32> {
                        SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(row + offset).loadUnaligned(as: SIMD16<UInt8>.self))
                    }
                    let dx = load(center, x + 1) &- load(center, x - 1)
                    let dy = load(below, x) &- load(above, x)
                    sum += Int64((dx &* dx &+ dy &* dy).wrappedSum())
                    x += 16
                }
                while x < width - 1 {
                    let dx = Int64(center[x + 1]) - Int64(center[x - 1]), dy = Int64(below[x]) - Int64(above[x])
                    sum += dx * dx + dy * dy
                    x += 1
                }
                total += sum
                rows += 1
                y += step
            }
        }
        return rows > 0 ? Double(total) * Double(height - 2) / Double(rows) : 0
    }
}
