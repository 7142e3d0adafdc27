import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Signals a Temporal workflow through the frontend's HTTP API:
/// `POST {base}/api/v1/namespaces/{namespace}/workflows/{workflow_id}/signal/{signal_name}` with
/// `{"input": [PhotoData], "identity": ..., "requestId": photo_id}`.
package struct TemporalSignalTarget: SignalTarget {
    /// `temporal`.
    package let name = "temporal"
    /// The HTTP API base URL, such as `http://127.0.0.1:7243`.
    package let baseURL: String
    /// The namespace.
    package let namespace: String
    /// Sent as `Authorization: Bearer <key>` (Temporal Cloud API keys), when set.
    package let apiKey: String?
    /// Who is signalling, as shown in the workflow history.
    package let identity: String
    private let timeout: TimeAmount

    /// A target on `baseURL`.
    package init(baseURL: String, namespace: String, apiKey: String?, identity: String, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.namespace = namespace
        self.apiKey = apiKey
        self.identity = identity
        self.timeout = TimeAmount(timeout)
    }

    /// The request body.
    struct SignalRequest: Encodable {
        let input: [PhotoData]
        let identity: String
        let requestId: String
    }

    /// Makes one attempt through `client`.
    package func deliver(_ entry: OutboxEntry, using client: HTTPClient) async -> DeliveryOutcome {
        let url = "\(baseURL)/api/v1/namespaces/\(Self.escape(namespace))/workflows/\(Self.escape(entry.workflowID))/signal/\(Self.escape(entry.signalName))"
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let apiKey {
            request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        }
        do {
            let body = try JSONEncoder().encode(SignalRequest(input: [entry.photo], identity: identity, requestId: entry.photo.photoID))
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: timeout)
            let text = await response.body.textPrefix()
            if response.status == .notFound {
                return .reject(DeliveryFailure(
                    .workflowNotFound, "workflow '\(entry.workflowID)' not found in namespace '\(namespace)' (Temporal: \(Self.message(in: text)))"
                ))
            }
            return DeliveryOutcome.forStatus(Int(response.status.code), detail: Self.message(in: text))
        } catch {
            return .retry(DeliveryFailure(.unreachable, "cannot reach Temporal at \(RedactedURL(baseURL)): \(error)"))
        }
    }

    /// The `message` of a gRPC-status JSON error body, or the body itself.
    static func message(in body: String) -> String {
        if let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], let message = object["message"] as? String {
            return message
        }
        return body.isEmpty ? "no body" : String(body.prefix(300))
    }

    /// Percent-escapes one path segment.
    static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }
}
