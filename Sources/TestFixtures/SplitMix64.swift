/// A small deterministic random generator, so that a failing randomized test reproduces.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; the seed.
    package var state: UInt64

    /// A generator seeded with `state`.
    package init(state: UInt64) {
        self.state = state
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
