import AsyncHTTPClient
import NIOCore

extension HTTPClientResponse.Body {
    /// The first 4 KiB of the body as text, for error messages. The rest is read and dropped, and
    /// a body that fails part-way leaves the status to decide the outcome.
    func textPrefix(limit: Int = 4096) async -> String {
        var kept = ByteBuffer()
        do {
            for try await var chunk in self where kept.readableBytes < limit {
                kept.writeBuffer(&chunk)
            }
        } catch {}
        return String(buffer: kept.getSlice(at: kept.readerIndex, length: Swift.min(kept.readableBytes, limit)) ?? kept)
    }
}
