/// One mutated copy of a photo and what the validator must answer for it.
package struct PhotoMutation: Sendable {
    /// What a mutation class must get.
    package enum Expectation: String, Sendable {
        /// `invalid_image`: the damage is certain to be seen.
        case invalid
        /// An answer within the decode memory budget (declared-huge headers).
        case bounded
        /// Any answer, with no crash and no hang.
        case any
    }

    /// The class, such as `jpeg-cut-eoi-40` or `bitflip`.
    package let name: String
    /// The mutated bytes.
    package let bytes: [UInt8]
    /// What the validator must answer.
    package let expectation: Expectation
}
