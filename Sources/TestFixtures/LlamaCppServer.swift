import Foundation

/// A real OpenAI-compatible server: llama-cpp-python's (`python -m llama_cpp.server`, PyPI
/// `llama-cpp-python[server]`, which compiles llama.cpp) serving a tiny model that
/// `scripts/peers/tiny_llama_gguf.py` writes, on a free loopback port.
package final class LlamaCppServer: Sendable {
    /// The Python that `scripts/setup --test` installs the server into: `PHOTO_VALIDATOR_PYTHON`,
    /// else `.venv/bin/python`.
    package static let python: URL? = {
        let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }()

    /// True when the test can run (llama-cpp-python is in `.venv`), or must (under `scripts/test`).
    package static var available: Bool {
        if Fixtures.peersRequired { return true }
        let lib = Fixtures.repositoryRoot.appendingPathComponent(".venv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: lib.appendingPathComponent("\($0)/site-packages/llama_cpp/server").path) }
    }

    /// The port the server listens on.
    package let port: Int
    /// The model's name in requests.
    package let model = "tiny-llama"
    private let folder: URL
    private let peer = PeerProcess()

    /// A server on a free loopback port; call `start()`.
    package init() throws {
        port = try TemporalDevServer.freePort()
        folder = URL(fileURLWithPath: Fixtures.temporaryPath("llama"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The base URL for the content check.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Writes the model and starts the server, waiting until it answers (at most 120 s).
    package func start() async throws {
        guard let python = Self.python else {
            throw PeerProcess.Failure(description: "no Python with llama-cpp-python: run scripts/setup --test")
        }
        let model = folder.appendingPathComponent("tiny.gguf").path
        let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/peers/tiny_llama_gguf.py").path
        let written = try await ProcessRunner.run(python, [script, model])
        guard written.status == 0 else {
            throw PeerProcess.Failure(description: "the tiny model could not be written (gguf in .venv? run scripts/setup --test): \(written.standardError.suffix(400))")
        }
        try await peer.start(python, ["-m", "llama_cpp.server", "--model", model, "--model_alias", self.model, "--host", "127.0.0.1",
                                      "--port", String(port), "--n_ctx", "4096", "--n_threads", "1"],
                             name: "llama_cpp.server (llama-cpp-python[server] in .venv? run scripts/setup --test)", port: port, path: "/v1/models",
                             errorLog: folder.appendingPathComponent("server.log"))
    }

    /// Stops the server and waits for it to exit, off the cooperative pool.
    package func stop() async {
        await peer.stop()
    }
}
