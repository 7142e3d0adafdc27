import Foundation

/// Where the test photos and peer tools are: the repository's `testdata/`, `../shared/` when
/// present, and the tools in `.venv`.
package enum Fixtures {
    /// The repository root (the folder holding Package.swift): the checkout whose `.build` holds the
    /// running test binary, else the one this file was compiled in. The first lets a copied checkout
    /// reuse a build (scripts/test-elsewhere) and still read its own files.
    package static let repositoryRoot: URL = {
        if let root = packageFolder(above: URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()) {
            return root
        }
        guard let root = packageFolder(above: URL(fileURLWithPath: #filePath)) else {
            fatalError("Package.swift not found above \(#filePath)")
        }
        return root
    }()

    private static func packageFolder(above start: URL) -> URL? {
        var url = start
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        return nil
    }

    /// `testdata/` in the repository: always present.
    package static let testdata = repositoryRoot.appendingPathComponent("testdata")

    /// `../shared/` beside the repository, or nil when this checkout has none.
    package static let shared: URL? = {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("photos").path) ? url : nil
    }()

    /// A file under `testdata/`.
    package static func testdataFile(_ relativePath: String) -> URL {
        testdata.appendingPathComponent(relativePath)
    }

    /// A file under `../shared/`, or nil when there is no shared folder.
    package static func sharedFile(_ relativePath: String) -> URL? {
        shared?.appendingPathComponent(relativePath)
    }

    /// The peer tool `name` (`python`, `temporal`) that `scripts/setup --test` installs: the
    /// executable the environment variable `variable` names, else `.venv/bin/name` in the
    /// repository, which may be missing (callers check, and skip or fail).
    package static func peerTool(_ name: String, overriddenBy variable: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[variable], FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        return repositoryRoot.appendingPathComponent(".venv/bin/\(name)")
    }

    /// A path named `name` in a new, empty temporary folder (for databases, sockets and logs).
    package static func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photo-validator-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    /// True when tests that read `../shared/` must run: it is there, or the run requires its peers
    /// (then a missing folder fails those tests instead of skipping them).
    package static var sharedRequiredOrPresent: Bool {
        shared != nil || peersRequired
    }

    /// True for a hermetic run (`PHOTO_VALIDATOR_HERMETIC=1`): only suites that need nothing but
    /// this process and `testdata/` run; `.integration` suites are skipped.
    package static var hermeticOnly: Bool {
        ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_HERMETIC"] == "1" && !peersRequired
    }

    /// True when the run must not skip tests whose peers are missing (set by `scripts/test` and CI).
    package static var peersRequired: Bool {
        ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_REQUIRE_PEERS"] == "1"
    }
}
