extension PhotoValidatorApp {
    /// The warning logged at start when `limits.client_header` is not set, saying whom photos are
    /// queued per instead and what to set; nil when it is set.
    static func fairnessWarning(_ configuration: ServiceConfiguration) -> String? {
        guard configuration.clientHeader == nil else { return nil }
        let callers = configuration.callerTokens.isEmpty ? "per peer network (IPv4 /24, IPv6 /64)" : "per auth.tokens name, else per peer network (IPv4 /24, IPv6 /64),"
        return "limits.client_header is not set: fair admission queues photos \(callers) with projects as sub-queues, "
            + "so every user behind one gateway (or one token) shares a single turn and one of them can slow the others. "
            + "Set limits.client_header (--client-header or PHOTO_VALIDATOR_LIMITS_CLIENT_HEADER) to the header in which the gateway "
            + "sends the authenticated user's id, such as X-User-Id, and have the gateway overwrite that header on every request."
    }
}
