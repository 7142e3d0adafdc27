/// What one delivery attempt came to.
package enum DeliveryOutcome: Sendable, Equatable {
    /// The target accepted the signal.
    case delivered
    /// A passing failure (network, 5xx, 429): try again later.
    case retry(DeliveryFailure)
    /// The target refused it for good (the workflow does not exist, a 4xx): dead-letter it.
    case reject(DeliveryFailure)

    /// Classifies an HTTP answer: 2xx delivered; 401, 403 (a credential an operator can fix),
    /// 408, 409, 425, 429 and 5xx retried until the maximum age; other 4xx rejected.
    static func forStatus(_ status: Int, detail: @autoclosure () -> String) -> DeliveryOutcome {
        switch status {
        case 200..<300: .delivered
        case 401, 403, 408, 409, 425, 429, 500...599: .retry(DeliveryFailure(.http(status), "HTTP \(status): \(detail())"))
        default: .reject(DeliveryFailure(.http(status), "HTTP \(status): \(detail())"))
        }
    }
}
