import Hummingbird

/// Requires `Authorization: Bearer <token>` on every route except the liveness probe: the shared
/// `auth.token`, or one of the named `auth.tokens`, whose name the request's context then carries
/// as its authenticated caller (for fair admission).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ValidationRequestContext

    /// Paths served without a token.
    static let openPaths: Set<String> = ["/healthz"]

    /// The shared token, which names no caller, or nil.
    let token: String?
    /// The named tokens.
    let callerTokens: [CallerToken]

    /// Accepts `token` (when set) and each of `callerTokens`.
    init(token: String?, callerTokens: [CallerToken] = []) {
        self.token = token
        self.callerTokens = callerTokens
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.openPaths.contains(request.uri.path) else {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthorized
        }
        let presented = Array(header.dropFirst("Bearer ".count).utf8)
        // Every token is compared, so timing tells neither which one matched nor how much of it.
        var shared = false
        if let token { shared = Self.constantTimeEquals(presented, Array(token.utf8)) }
        var caller: String?
        for named in callerTokens where Self.constantTimeEquals(presented, Array(named.token.utf8)) {
            caller = named.name
        }
        guard shared || caller != nil else { throw APIError.unauthorized }
        var context = context
        context.authenticatedCaller = caller
        return try await next(request, context)
    }

    /// Compares without returning early, so timing does not reveal how much of a guess was right.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference: UInt8 = lhs.count == rhs.count ? 0 : 1
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
