import Configuration
import Testing
@testable import ValidatorConfiguration

@Suite("Settings declared once")
struct SettingsCatalogTests {
    private let catalog = SettingsCatalog([
        Setting("http.port", .integer(0...65_535), default: "8080", flag: "port", "TCP port"),
        Setting("limits.admission_wait_seconds", .seconds, default: "10", "longest wait"),
        Setting("log.format", .choice(["text", "json"]), default: "text", "log line format"),
        Setting("content.room", .boolean, default: "true", "check room photos"),
        Setting("auth.token", .text, secret: true, "bearer token"),
        Setting("webhook.url", .text, flag: "webhook-url", secret: true, "webhook URL"),
    ])

    @Test("a setting's flag is the one it names, else its key with dashes; a secret has none unless it names one")
    func flags() {
        #expect(catalog["http.port"].flag == "port")
        #expect(catalog["limits.admission_wait_seconds"].flag == "limits-admission-wait-seconds")
        #expect(catalog["auth.token"].flag == nil)
        #expect(catalog["webhook.url"].flag == "webhook-url" && catalog["webhook.url"].isSecret)
        #expect(catalog["http.port"].environmentVariable == "PHOTO_VALIDATOR_HTTP_PORT")
    }

    @Test("flags are read as --flag value or --flag=value, typed by their setting")
    func values() throws {
        let values = try catalog.values(fromFlags: ["--port", "9000", "--limits-admission-wait-seconds=2.5", "--log-format", "json", "--content-room=false"])
        #expect(values["http.port"] == .int(9000))
        #expect(values["limits.admission_wait_seconds"] == .double(2.5))
        #expect(values["log.format"] == .string("json"))
        #expect(values["content.room"] == .bool(false))
    }

    @Test("an unknown flag, a missing value, a stray argument and a value of the wrong type are one-line errors that say what to do")
    func errors() {
        #expect(throws: ConfigurationError(commandLine: "unknown option '--portt'; `photo-validator config` lists every setting with its flag")) {
            try catalog.values(fromFlags: ["--portt", "1"])
        }
        #expect(throws: ConfigurationError(commandLine: "missing value for '--port': expected a whole number from 0 to 65535")) {
            try catalog.values(fromFlags: ["--port"])
        }
        #expect(throws: ConfigurationError.self) { try catalog.values(fromFlags: ["9000"]) }
        #expect(throws: ConfigurationError(source: "--port", value: "abc", expected: "a whole number from 0 to 65535")) {
            try catalog.values(fromFlags: ["--port", "abc"])
        }
        #expect(throws: ConfigurationError(source: "--content-room", value: "maybe", expected: "true or false")) {
            try catalog.values(fromFlags: ["--content-room", "maybe"])
        }
    }

    @Test("reads take the range and choices from the declaration, and errors name the key and what it accepts")
    func reads() throws {
        func reader(_ values: [String: ConfigContent]) -> SettingsReader {
            let provider = InMemoryProvider(values: Dictionary(uniqueKeysWithValues: values.map { (AbsoluteConfigKey(ConfigKey($0.key)), ConfigValue($0.value, isSecret: false)) }))
            return SettingsReader(reader: ConfigReader(provider: provider), catalog: catalog)
        }
        #expect(try reader(["http.port": .int(7000)]).integer("http.port") == 7000)
        #expect(throws: ConfigurationError(source: "http.port", value: "70000", expected: "a whole number from 0 to 65535")) {
            try reader(["http.port": .int(70_000)]).integer("http.port")
        }
        #expect(throws: ConfigurationError(source: "log.format", value: "xml", expected: "one of text, json")) {
            try reader(["log.format": .string("xml")]).choice("log.format", of: Format.self)
        }
        #expect(try reader([:]).seconds("limits.admission_wait_seconds") == nil)
    }

    private enum Format: String, CaseIterable { case text, json }
}
