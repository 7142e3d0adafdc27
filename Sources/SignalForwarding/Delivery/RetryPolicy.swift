import Foundation

/// When to try a failed delivery again: exponential backoff with jitter, and how long a signal may
/// stay undelivered before it becomes a dead letter.
package struct RetryPolicy: Sendable, Equatable {
    /// The delay after the first failure.
    package var initialDelay: Duration = .seconds(1)
    /// The longest delay between attempts.
    package var maximumDelay: Duration = .seconds(300)
    /// How long a signal may stay undelivered (the workflow's abandonment window).
    package var maximumAge: Duration = .seconds(48 * 3600)

    /// The default policy: 1 s doubling to 5 minutes, for 48 hours.
    package init() {}

    /// The delay before attempt `attempts + 1` after `attempts` failures, with "equal jitter": a
    /// random point in the upper half of the exponential delay, so retries of many signals spread out.
    package func delay(afterAttempts attempts: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        let initial = initialDelay / .seconds(1)
        let exponential = min(maximumDelay / .seconds(1), initial * pow(2, Double(max(0, attempts - 1))))
        return .milliseconds(Int64((exponential / 2 + exponential / 2 * random) * 1000))
    }
}
