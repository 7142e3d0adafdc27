/// The answer for one photo: the gateway's `ValidatePhotoOutput` plus our `details`.
public struct ValidatePhotoOutput: Sendable, Codable, Equatable {
    /// The message of a photo that passed every check.
    public static let passedMessage = "Photo looks great!"

    /// True exactly when `failures` is empty.
    public let passed: Bool
    /// Failure codes, in check order.
    public let failures: [FailureCode]
    /// `messages[i]` explains `failures[i]`; a passed photo has the single "Photo looks great!".
    public let messages: [String]
    /// Measured figures for logs, tuning and support; clients may ignore them.
    public let details: ValidationDetails

    /// Builds the answer from failures, deriving `passed` and the messages.
    public init(failures: [FailureCode], photoType: PhotoType, minimumShortSide: Int, details: ValidationDetails) {
        self.passed = failures.isEmpty
        self.failures = failures
        self.messages = failures.isEmpty
            ? [Self.passedMessage]
            : failures.map { $0.message(for: photoType, minimumShortSide: minimumShortSide) }
        self.details = details
    }

    /// This answer with `details` changed by `update`, its verdict and messages as they are.
    public func updatingDetails(_ update: (inout ValidationDetails) -> Void) -> ValidatePhotoOutput {
        var copy = self
        update(&copy.editableDetails)
        return copy
    }

    // `details` stays read-only to callers; `updatingDetails` edits a copy through this.
    private var editableDetails: ValidationDetails {
        get { details }
        set { self = ValidatePhotoOutput(passed: passed, failures: failures, messages: messages, details: newValue) }
    }

    private init(passed: Bool, failures: [FailureCode], messages: [String], details: ValidationDetails) {
        self.passed = passed
        self.failures = failures
        self.messages = messages
        self.details = details
    }

    /// This answer with `failure` added after the others and `details` changed by `update`: a
    /// check that runs outside the validator (the project's duplicate check).
    public func adding(_ failure: FailureCode, updating update: (inout ValidationDetails) -> Void = { _ in }) -> ValidatePhotoOutput {
        var details = details
        update(&details)
        return ValidatePhotoOutput(failures: failures + [failure], photoType: details.photoType, minimumShortSide: details.minimumShortSide, details: details)
    }
}
