/// Waits until `condition` holds, checking every `interval`, for at most `limit`; returns whether it held.
package func poll(within limit: Duration = .seconds(30), every interval: Duration = .milliseconds(20), until condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return false
}
