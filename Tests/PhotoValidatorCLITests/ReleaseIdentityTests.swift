import Foundation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

@Suite("photo-validator --version", .integration, .timeLimit(.minutes(10)))
struct ReleaseIdentityTests {
    @Test("prints the version, the git revision and the libvips version it runs with")
    func version() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["--version"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let line = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == ReleaseIdentity.description)
        let pattern = #/^photo-validator \d+\.\d+\.\d+ \(git [0-9A-Za-z.+-]+, libvips \d+\.\d+\.\d+\)$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test("--version --verbose names each decoder library with its version, and the Swift packages")
    func verbose() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["--version", "--verbose"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == ReleaseIdentity.description)
        for library in ["libvips", "libjpeg-turbo", "libavcodec"] {
            #expect(lines.contains { $0.wholeMatch(of: try! Regex("  \(library) \\d+\\.\\d+\\.\\d+.*")) != nil }, "\(library) in \(lines)")
        }
        let listed = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("dependencies.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { "  " + $0 }
        #expect(listed.allSatisfy { lines.contains($0) }, "every package of dependencies.txt with its version")
    }
}
