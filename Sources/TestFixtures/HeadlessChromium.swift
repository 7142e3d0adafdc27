import Foundation

/// Debian's `chromium` run headless on a page from disk, for the tests of the report pages:
/// the DOM after its scripts ran (`--dump-dom`), what its console said, and screenshots.
/// `scripts/setup --test` installs it.
package enum HeadlessChromium {
    /// The browser: `PHOTO_VALIDATOR_CHROMIUM`, else `chromium` on the `PATH`.
    package static let executable: URL? = {
        if let path = ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_CHROMIUM"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("chromium") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// True when the browser tests can run, or must (under `scripts/test`, where a missing browser fails them).
    package static var available: Bool { executable != nil || Fixtures.peersRequired }

    /// A page as the browser left it.
    package struct Page: Sendable {
        /// The serialized DOM after the page's scripts ran.
        package let dom: String
        /// The lines the page's console printed (errors, uncaught exceptions, security-policy refusals).
        package let console: [String]
    }

    /// Loads `url` (a `file://` URL, with a fragment if any) and returns its DOM and console.
    package static func load(_ url: URL) async throws -> Page {
        let outcome = try await run(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", url.absoluteString])
        let console = outcome.standardError.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
        return Page(dom: outcome.standardOutput, console: console)
    }

    /// Writes a PNG screenshot of `url` at `width` x `height` to `file`.
    package static func screenshot(_ url: URL, to file: URL, width: Int = 1400, height: Int = 1800) async throws {
        _ = try await run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--virtual-time-budget=5000", "--screenshot=\(file.path)", url.absoluteString])
    }

    private static func run(_ arguments: [String]) async throws -> ProcessRunner.Outcome {
        guard let executable else {
            throw Missing()
        }
        // A profile of its own, so tests running at once never share one.
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("pv-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try await ProcessRunner.run(executable, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)"] + arguments)
    }

    /// The browser is not installed.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String { "chromium is not installed (scripts/setup --test installs it, or set PHOTO_VALIDATOR_CHROMIUM)" }
    }
}
