import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import TestFixtures

/// A fault-injecting proxy in front of Temporal's HTTP API: it passes every request on, answers
/// each with 500, or delays each (a quarter of them past the daemon's signal timeout).
package final class FaultProxy: Sendable {
    /// What the proxy does with a request.
    package enum Mode: String, Sendable {
        /// Forward it.
        case pass
        /// Answer 500 as Temporal does on an internal error.
        case error
        /// Wait, then forward it.
        case slow
    }

    private let upstreamPort: Int
    private let slowDelay: Duration
    private let pastTimeoutDelay: Duration
    private let state = Mutex<(mode: Mode, counts: [String: Int], timings: [Double])>((.pass, [:], []))

    /// A proxy to Temporal's HTTP API on `upstreamPort`; `slow` waits `slowDelay`, a quarter of
    /// the requests `pastTimeoutDelay`.
    package init(upstreamPort: Int, slowDelay: Duration, pastTimeoutDelay: Duration) {
        self.upstreamPort = upstreamPort
        self.slowDelay = slowDelay
        self.pastTimeoutDelay = pastTimeoutDelay
    }

    /// The current mode.
    package var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// How many requests met each fate (`forwarded_200`, `injected_500`, `delayed`...).
    package var counts: [String: Int] { state.withLock { $0.counts } }

    /// Seconds from a request's arrival to Temporal's answer, in pass mode.
    package var timings: [Double] { state.withLock { $0.timings } }

    private func count(_ key: String) { state.withLock { $0.counts[key, default: 0] += 1 } }

    /// The application to run; `onListening` gets its port.
    package func application(onListening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: Forwarding(proxy: self))
        var quiet = Logger(label: "soak-fault-proxy")
        quiet.logLevel = .critical
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           onServerRunning: { onListening($0.localAddress?.port ?? 0) }, logger: quiet)
    }

    /// Answers one request as the mode says.
    fileprivate func handle(_ request: Request) async throws -> Response {
        let received = ContinuousClock.now
        let body = try await request.body.collect(upTo: 16 << 20)
        let mode = self.mode
        switch mode {
        case .error:
            count("injected_500")
            return Response(status: .internalServerError, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"code":13,"message":"soak proxy: injected 500","details":[]}"#)))
        case .slow:
            let late = Double.random(in: 0..<1) < 0.25
            count(late ? "delayed_past_timeout" : "delayed")
            try await Task.sleep(for: late ? pastTimeoutDelay : slowDelay)
        case .pass:
            break
        }
        let headers = request.headers.filter { ![.connection, .contentLength].contains($0.name) && $0.name.canonicalName != "host" }.map { "\($0.name.rawName): \($0.value)" }
        let text: String
        do {
            text = try await RawHTTP.request(port: upstreamPort, method: request.method.rawValue, path: request.uri.description,
                                             headers: headers, body: Array(buffer: body))
        } catch {
            // Temporal is down: answer as a gateway would; the daemon retries either way.
            count("upstream_unreachable")
            return Response(status: .badGateway)
        }
        guard let answer = RawHTTPAnswer(text) else {
            count("upstream_unreachable")
            return Response(status: .badGateway)
        }
        count("forwarded_\(answer.status)")
        if mode == .pass { state.withLock { $0.timings.append((ContinuousClock.now - received).seconds) } }
        return Response(status: .init(code: answer.status), headers: [.contentType: answer.headers["content-type"] ?? "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: answer.body)))
    }

    /// The middleware that answers every request through the proxy.
    private struct Forwarding: RouterMiddleware {
        let proxy: FaultProxy

        func handle(_ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
            try await proxy.handle(request)
        }
    }
}
