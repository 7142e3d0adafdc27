import ArgumentParser
import Foundation
import PhotoValidation
import PhotoValidatorServer
import TestFixtures
import Testing
import ValidatorConfiguration
@testable import PhotoValidatorCLI

/// `arguments` as `runFromCommandLine` hands them to `command`: its setting flags gathered.
private func parsed<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) throws -> Command {
    let gathered = PhotoValidatorCommand.gatheringSettingFlags([Command.configuration.commandName!] + arguments)
    return try Command.parse(Array(gathered.dropFirst()))
}

@Suite("The batch commands take their setting flags from the catalog")
struct BatchSettingFlagsTests {
    @Test("a batch command's setting flags are gathered ahead of its own arguments; other commands' are left alone")
    func gathering() {
        #expect(PhotoValidatorCommand.gatheringSettingFlags(["validate", "a.jpg", "--room-min-side", "2000", "b.jpg", "--type", "room", "--content-timeout=3"])
            == ["validate", "--setting=--room-min-side=2000", "--setting=--content-timeout=3", "a.jpg", "b.jpg", "--type", "room"])
        #expect(PhotoValidatorCommand.gatheringSettingFlags(["bench", "--port", "1", "a.jpg", "--", "--room-min-side", "5"])
            == ["bench", "--port", "1", "a.jpg", "--", "--room-min-side", "5"], "not bench's setting, and nothing after -- is a flag")
        #expect(PhotoValidatorCommand.gatheringSettingFlags(["serve", "--port", "9000"]) == ["serve", "--port", "9000"])
        #expect(PhotoValidatorCommand.gatheringSettingFlags(["tune", "set", "--validation-timeout"]) == ["tune", "--setting=--validation-timeout", "set"])
    }

    @Test("validate: a flag beats its environment variable, which beats the catalog's default; the value is never a path")
    func validatePrecedence() async throws {
        let command = try parsed(ValidateCommand.self, ["a.jpg", "--room-min-side", "2000", "b.jpg"])
        #expect(command.paths == ["a.jpg", "b.jpg"])
        let environment = ["PHOTO_VALIDATOR_ROOM_MIN_SIDE": "800", "PHOTO_VALIDATOR_DECODE_MEMORY_MIB": "64"]
        let flagged = try await command.settingFlags.validation(ValidateCommand.settingsCatalog, command: "validate", environment: environment)
        #expect(flagged.roomMinimumShortSide == 2000)
        #expect(flagged.decodeMemoryBudget == 64 << 20)
        let plain = try parsed(ValidateCommand.self, ["a.jpg"])
        #expect(try await plain.settingFlags.validation(ValidateCommand.settingsCatalog, command: "validate", environment: environment).roomMinimumShortSide == 800)
        #expect(try await plain.settingFlags.validation(ValidateCommand.settingsCatalog, command: "validate", environment: [:]) == ValidationSettings())
    }

    @Test("validate takes every setting of the checks, not only the ones it once declared")
    func everyCheckSetting() async throws {
        let command = try parsed(ValidateCommand.self, [".", "--exposure-check", "false", "--duplicates-max-distance=3"])
        let settings = try await command.settingFlags.validation(ValidateCommand.settingsCatalog, command: "validate", environment: [:])
        #expect(!settings.exposure.enabled)
        #expect(settings.duplicateRule.maximumDistance == 3)
    }

    @Test("bench and tune take one photo's deadline from limits.validation_timeout_seconds: flag, then variable, then default")
    func deadline() async throws {
        func deadline(_ command: String, _ arguments: [String], _ environment: [String: String]) async throws -> Duration {
            let (flags, catalog) = command == "bench"
                ? (try parsed(BenchCommand.self, arguments).settingFlags, BenchCommand.settingsCatalog)
                : (try parsed(TuneCommand.self, arguments).settingFlags, TuneCommand.settingsCatalog)
            return try await flags.validationAndDeadline(catalog, command: command, environment: environment).1
        }
        let variable = ["PHOTO_VALIDATOR_LIMITS_VALIDATION_TIMEOUT_SECONDS": "9"]
        for command in ["bench", "tune"] {
            #expect(try await deadline(command, ["a.jpg", "--validation-timeout", "5"], variable) == .seconds(5))
            #expect(try await deadline(command, ["a.jpg"], variable) == .seconds(9))
            #expect(try await deadline(command, ["a.jpg"], [:]) == ServiceConfiguration().validationTimeout)
        }
        #expect(ServiceConfiguration().validationTimeout == .seconds(30))
    }

    @Test("a setting flag the command does not take is an error that names it and where the settings are listed")
    func unknownSetting() async throws {
        let command = try ValidateCommand.parse(["a.jpg", "--setting=--port=9000"])
        await #expect(throws: ConfigurationError(commandLine: "unknown option '--port'; `photo-validator validate --help` lists its settings")) {
            try await command.settingFlags.validation(ValidateCommand.settingsCatalog, command: "validate", environment: [:])
        }
    }

    @Test("--help of each batch command lists its setting flags with variable and default, as serve's does")
    func help() {
        let bench = PhotoValidatorCommand.helpMessage(for: BenchCommand.self, columns: 300)
        #expect(bench.contains("--room-min-side <n>"))
        #expect(bench.contains("[env: PHOTO_VALIDATOR_ROOM_MIN_SIDE, default: 1024]"))
        #expect(bench.contains("--validation-timeout <seconds>"))
        #expect(bench.contains("[env: PHOTO_VALIDATOR_LIMITS_VALIDATION_TIMEOUT_SECONDS, default: 30]"))
        #expect(!bench.contains("--content-provider"), "bench has no content check")
        let tune = PhotoValidatorCommand.helpMessage(for: TuneCommand.self, columns: 300)
        #expect(tune.contains("--decode-memory <n>") && tune.contains("--validation-timeout <seconds>"))
        let validate = PhotoValidatorCommand.helpMessage(for: ValidateCommand.self, columns: 300)
        #expect(validate.contains("--exposure-check <true|false>") && validate.contains("--content-timeout <seconds>"))
        #expect(!validate.contains("--decode-worker-executable"), "a hidden setting stays hidden")
        let evaluate = PhotoValidatorCommand.helpMessage(for: EvaluateContentCommand.self, columns: 300)
        #expect(evaluate.contains("--content-provider <none|anthropic|openai>") && !evaluate.contains("--room-min-side"))
    }
}

@Suite("Batch setting flags, end to end", .integration, .timeLimit(.minutes(10)))
struct BatchSettingFlagsProcessTests {
    @Test("validate --room-min-side 2000 fails a 2560x1600 room photo that passes by default; the flag beats the variable")
    func roomMinimumSide() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "cups.jpg")
        let path = folder.url.appendingPathComponent("cups.jpg").path
        let plain = try await photoValidator(["validate", path, "--format", "jsonl", "--no-progress"])
        #expect(plain.status == 0, "\(plain.standardError)")
        let raised = try await photoValidator(["validate", path, "--room-min-side", "2000", "--format", "jsonl", "--no-progress"])
        #expect(raised.status == 1, "\(raised.standardError)")
        #expect(try jsonLines(raised.standardOutput).first?["failures"] as? [String] == ["low_resolution"])
        let overridden = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["validate", path, "--room-min-side", "100", "--no-progress"],
                                                     environment: ["PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD": "0", "PHOTO_VALIDATOR_ROOM_MIN_SIDE": "100000"])
        #expect(overridden.status == 0, "\(overridden.standardError)")
    }

    @Test("bench decodes within --validation-timeout: a deadline of 1 ms fails a photo that passes within the default")
    func benchDeadline() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "cups.jpg")
        let path = folder.url.appendingPathComponent("cups.jpg").path
        func passed(_ outcome: ProcessRunner.Outcome) throws -> Bool? {
            let report = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
            return (report["photos"] as? [[String: Any]])?.first?["passed"] as? Bool
        }
        let plain = try await photoValidator(["bench", path, "--iterations", "1"])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(try passed(plain) == true)
        let hurried = try await photoValidator(["bench", path, "--iterations", "1", "--validation-timeout", "0.001"])
        #expect(hurried.status == 0, "\(hurried.standardError)")
        #expect(try passed(hurried) == false)
    }

    @Test("an unknown flag, or another command's setting, is a usage error that names it, exit 2", arguments: ["--room-min-sid", "--port"])
    func unknownFlag(flag: String) async throws {
        let outcome = try await photoValidator(["validate", ".", flag, "5"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Unknown option '\(flag)'"), "\(outcome.standardError)")
    }
}
