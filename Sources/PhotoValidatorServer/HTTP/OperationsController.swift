import Foundation
import Hummingbird
import PhotoValidation

/// Liveness, readiness, metrics and the API description.
struct OperationsController {
    let service: PhotoValidationService
    let state: ServiceState
    let forwarder: SignalForwarder?

    func addRoutes(to router: Router<ValidationRequestContext>) {
        router.get("/healthz") { _, _ in
            try Response.json(["status": "ok"])
        }
        router.get("/readyz", use: ready)
        router.get("/metrics") { _, _ in
            if let forwarder, let counts = try? await forwarder.outbox.counts() {
                service.metrics.recordOutbox(counts)
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: service.metrics.render())))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.text)))
        }
    }

    /// 200 when the daemon can take work: not draining, a tiny PNG decodes on a worker thread, and
    /// the outbox (when forwarding is on) can be written.
    @Sendable func ready(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        var reasons: [String] = []
        if state.isDraining {
            reasons.append("draining: shutting down")
        }
        let validator = service.validator
        do {
            let output = try await service.pool.run {
                Self.probePNG.withUnsafeBytes { validator.validate($0, as: .inspiration) }
            }
            if output.details.format != "png" {
                reasons.append("libvips: the probe image did not decode (\(output.details.errorDetail ?? "no detail"))")
            }
        } catch {
            reasons.append("workers: \(error)")
        }
        if let forwarder {
            do {
                try await forwarder.outbox.checkWritable()
            } catch {
                reasons.append("outbox: \(error)")
            }
        }
        if reasons.isEmpty {
            return try Response.json(["status": "ready"])
        }
        return try Response.json(["status": "not_ready", "reasons": reasons.joined(separator: "; ")], status: .serviceUnavailable)
    }

    /// A valid 1x1 grey PNG, decoded by every readiness probe.
    static let probePNG: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==")!)
}
