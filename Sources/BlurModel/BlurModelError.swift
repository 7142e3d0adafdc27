/// Why a model description could not be loaded.
package enum BlurModelError: Error, Equatable, CustomStringConvertible {
    /// The text is not the JSON the training script writes.
    case unreadable(String)
    /// A figure or layer breaks the contract (models/blur/SPEC.md).
    case invalid(String)

    /// What is wrong, for a person.
    package var description: String {
        switch self {
        case .unreadable(let reason): "blur model unreadable: \(reason)"
        case .invalid(let reason): "blur model invalid: \(reason)"
        }
    }
}
