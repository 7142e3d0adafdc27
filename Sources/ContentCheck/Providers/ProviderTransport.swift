import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Posts JSON to a provider over the shared HTTP client and turns every way it can go wrong into
/// a `ContentCheckError`.
struct ProviderTransport: Sendable {
    /// Answers larger than this are not read (a classification is a few hundred bytes).
    static let maximumResponseBytes = 1 << 20

    /// The client to call through, asked for at each call: the shared one is made on first use.
    let client: @Sendable () -> HTTPClient

    /// The body of a 200 answer to `body` posted to `url` with `headers`.
    ///
    /// - Throws: `ContentCheckError` for connection errors, the deadline, and any other status
    ///   (with the provider's error message and `retry-after`).
    func postJSON(_ url: String, headers: [(String, String)], body: Data, deadline: NIODeadline) async throws(ContentCheckError) -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "accept", value: "application/json")
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client().execute(request, deadline: deadline)
            let bytes = try await response.body.collect(upTo: Self.maximumResponseBytes)
            let data = Data(bytes.readableBytesView)
            guard response.status == .ok else {
                // The official SDKs read `retry-after-ms` first, then `retry-after`, and obey
                // `x-should-retry` over the status.
                let wait = response.headers.first(name: "retry-after-ms").flatMap(Self.retryAfterMilliseconds)
                    ?? response.headers.first(name: "retry-after").flatMap(Self.retryAfter)
                let shouldRetry: Bool? = switch response.headers.first(name: "x-should-retry")?.lowercased() {
                case "true": true
                case "false": false
                default: nil
                }
                throw ContentCheckError.httpStatus(Int(response.status.code), message: Self.errorMessage(in: data), retryAfter: wait, providerSaysRetry: shouldRetry)
            }
            return data
        } catch let error as ContentCheckError {
            throw error
        } catch is CancellationError {
            throw .timeout("cancelled at the check's deadline")
        } catch let error as HTTPClientError {
            if error == .cancelled || error == .deadlineExceeded || error == .readTimeout || NIODeadline.now() >= deadline {
                throw .timeout("no complete answer before the deadline (\(error))")
            }
            throw .connection(String(describing: error))
        } catch let error as NIOTooManyBytesError {
            throw .malformedResponse("the answer is larger than \(Self.maximumResponseBytes) bytes (\(error))")
        } catch {
            throw .connection(String(describing: error))
        }
    }

    /// The provider's own error message: Anthropic's `{"type":"error","error":{"type","message"}}`
    /// or OpenAI's `{"error":{"message","type","code"}}`; otherwise the start of the body.
    static func errorMessage(in body: Data) -> String {
        if let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
           let error = object["error"] as? [String: Any] {
            let type = (error["type"] as? String).map { "\($0): " } ?? ""
            return type + ((error["message"] as? String) ?? "no message")
        }
        return String(decoding: body.prefix(200), as: UTF8.self)
    }

    /// A `retry-after-ms` value in milliseconds (OpenAI's and Anthropic's SDKs prefer it); nil for anything else.
    static func retryAfterMilliseconds(_ value: String) -> Duration? {
        guard let milliseconds = Double(value.trimmingCharacters(in: .whitespaces)), milliseconds.isFinite, milliseconds >= 0 else { return nil }
        return .milliseconds(Int64(min(milliseconds, 86_400_000)))
    }

    /// A `retry-after` value in seconds (the form Anthropic and OpenAI send); nil for anything else.
    static func retryAfter(_ value: String) -> Duration? {
        guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0 else { return nil }
        return .milliseconds(Int64(min(seconds, 86_400) * 1000))
    }
}
