/// What a test may ask a worker to do wrong, to see that only its photo pays.
package enum TestMisbehaviour: Sendable {
    /// Dereference NULL (SIGSEGV).
    case crash
    /// Spin on the CPU past every deadline.
    case spin
    /// Allocate until the address-space limit stops it.
    case exhaustMemory
}
