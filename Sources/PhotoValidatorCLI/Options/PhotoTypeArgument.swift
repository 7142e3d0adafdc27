import ArgumentParser
import PhotoValidation

/// A photo type as a command-line value.
struct PhotoTypeArgument: ExpressibleByArgument, Sendable {
    /// The photo type.
    let value: PhotoType

    static let room = PhotoTypeArgument(value: .room)

    init(value: PhotoType) {
        self.value = value
    }

    init?(argument: String) {
        guard let value = PhotoType(rawValue: argument.lowercased()) else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { PhotoType.allCases.map(\.rawValue) }

    var defaultValueDescription: String { value.rawValue }
}
