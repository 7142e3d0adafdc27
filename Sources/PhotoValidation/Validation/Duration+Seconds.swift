extension Duration {
    /// The duration as fractional seconds.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration as fractional milliseconds.
    public var milliseconds: Double { seconds * 1000 }
}
