import HTTPTypes
import Hummingbird

extension PhotoValidationService {
    /// Who sent `request`, for fair admission (the worker pool's turns and the upload memory's
    /// shares): the configured client header's value (the gateway's user), else the name of the
    /// bearer token it came with, else the network of the peer's IP address (its IPv4 /24 or IPv6
    /// /64, `AddressPrefix`: a client taking a new address per request stays one caller); never
    /// anything the body or the path chooses.
    func caller(of request: Request, context: ValidationRequestContext) -> String {
        if let name = configuration.clientHeader, let field = HTTPField.Name(name), let value = request.headers[field], !value.isEmpty {
            return "header:" + value.prefix(200)
        }
        if let token = context.authenticatedCaller {
            return "token:" + token
        }
        return "address:" + (context.peerAddress.map(AddressPrefix.of) ?? "unknown")
    }
}
