import Foundation
import TestFixtures
import Testing

/// The cores the program takes as its own are those of its CPU affinity, not the machine's: a
/// daemon pinned to one core must not split a photo's work over a core it cannot run on.
@Suite("Cores follow the CPU affinity")
struct AvailableCoresTests {
    @Test("pinned to one core by taskset, validate's --jobs defaults to 1")
    func pinnedToOneCore() async throws {
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        try #require(FileManager.default.isExecutableFile(atPath: taskset.path), "util-linux's taskset is needed")
        let pinned = try await ProcessRunner.run(taskset, ["-c", "0", ProcessRunner.photoValidatorExecutable.path, "validate", "--help"])
        #expect(pinned.status == 0)
        #expect(pinned.standardOutput.contains("one per core).\n") && pinned.standardOutput.contains("(default: 1)"),
                "\(pinned.standardOutput.split(separator: "\n").filter { $0.contains("default") })")
    }
}
