import Foundation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

@Suite("photo-validator --version", .timeLimit(.minutes(10)))
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
}
