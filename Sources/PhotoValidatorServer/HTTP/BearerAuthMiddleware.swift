import Hummingbird

/// Requires `Authorization: Bearer <token>` on every route except the liveness probe.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ValidationRequestContext

    /// Paths served without a token.
    static let openPaths: Set<String> = ["/healthz"]

    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.openPaths.contains(request.uri.path) else {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
              Self.constantTimeEquals(Array(header.dropFirst("Bearer ".count).utf8), Array(token.utf8))
        else {
            throw APIError.unauthorized
        }
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
