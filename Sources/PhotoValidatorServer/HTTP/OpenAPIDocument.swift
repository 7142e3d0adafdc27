import Foundation

/// The OpenAPI 3.1 description of the HTTP API, shipped as a resource and served at `/openapi.yaml`.
enum OpenAPIDocument {
    /// The document text.
    static let text: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            return "openapi: 3.1.0\ninfo: {title: photo-validator, version: unknown}\npaths: {}\n"
        }
        return text
    }()
}
