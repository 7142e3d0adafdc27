extension PlaneResampling {
    /// The bilinear step's horizontal blend laid out for the AVX2 loop
    /// (`PlaneResamplingAVX2.horizontalBlend`): the output columns in groups of eight, each half
    /// group's four (left, right) sample pairs picked out of the sixteen bytes from its first left
    /// column by a byte shuffle. The columns are the same every row, so this is made once a resize.
    struct ShuffleGroups {
        /// The whole groups laid out; the outputs after them are left to the baseline loop.
        let count: Int
        /// Each half group's first left column (two a group).
        let starts: [Int32]
        /// Each half group's 16-byte shuffle: bytes 4j ..< 4j + 4 pick output j's two samples.
        let masks: [UInt8]
        /// Each output's weights of its left and right sample, `(128 - b, b)`.
        let weights: [Int16]

        /// The groups of `columns` (each output's left source column) and `weights` (its right
        /// sample's weight of 128), or nil when a half group's pairs do not all lie in sixteen bytes
        /// (a step of more than two source columns between neighbouring outputs, as when shrinking
        /// by more than 2), which the baseline loop then blends.
        init?(columns: [Int32], weights: [UInt32]) {
            let count = columns.count / 8
            var starts = [Int32](repeating: 0, count: 2 * count), masks = [UInt8](repeating: 0, count: 32 * count)
            var pairWeights = [Int16](repeating: 0, count: 16 * count)
            for half in 0..<(2 * count) {
                let first = columns[4 * half]
                starts[half] = first
                for j in 0..<4 {
                    let x = 4 * half + j
                    // The pair's four bytes start 2 * (column - first) bytes into the window.
                    let offset = Int(columns[x]) - Int(first)
                    guard offset >= 0, 2 * offset + 4 <= 16 else { return nil }
                    for byte in 0..<4 { masks[16 * half + 4 * j + byte] = UInt8(2 * offset + byte) }
                    pairWeights[2 * x] = Int16(128 - weights[x])
                    pairWeights[2 * x + 1] = Int16(weights[x])
                }
            }
            self.count = count
            self.starts = starts
            self.masks = masks
            self.weights = pairWeights
        }
    }
}
