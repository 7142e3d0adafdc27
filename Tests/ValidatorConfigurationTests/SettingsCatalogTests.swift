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

    @Test("reads take the range, choices and default from the declaration, and errors name the key and what it accepts")
    func reads() throws {
        func reader(_ values: [String: ConfigContent]) -> SettingsReader {
            let provider = InMemoryProvider(values: Dictionary(uniqueKeysWithValues: values.map { (AbsoluteConfigKey(ConfigKey($0.key)), ConfigValue($0.value, isSecret: false)) }))
            return SettingsReader(reader: ConfigReader(provider: provider), catalog: catalog)
        }
        let port = catalog["http.port"]
        #expect(try reader(["http.port": .int(7000)]).integer(port) == 7000)
        #expect(throws: ConfigurationError(source: "http.port", value: "70000", expected: "a whole number from 0 to 65535")) {
            try reader(["http.port": .int(70_000)]).integer(port)
        }
        #expect(throws: ConfigurationError(source: "log.format", value: "xml", expected: "one of text, json")) {
            try reader(["log.format": .string("xml")]).choice(catalog["log.format"], of: Format.self)
        }
        #expect(try reader([:]).integer(port) == 8080, "nothing set: the declared default")
        #expect(try reader([:]).seconds(catalog["limits.admission_wait_seconds"]) == .seconds(10))
        #expect(try reader([:]).choice(catalog["log.format"], of: Format.self) == .text)
        #expect(reader([:]).bool(catalog["content.room"]))
        #expect(try reader([:]).integerIfSet(port) == nil, "an IfSet read leaves the default to the code that computes it")
        #expect(try reader(["http.port": .int(1)]).integerIfSet(port) == 1)
    }

    @Test("a computed default is shown but never parsed; a literal one is both")
    func computedDefaults() {
        let queue = Setting("limits.queue", .integer(0...100), computed: "16 per worker", "queue")
        #expect(queue.defaultValue == "16 per worker" && queue.literalDefault == nil)
        #expect(catalog["http.port"].defaultValue == "8080" && catalog["http.port"].literalDefault == "8080")
    }

    @Test("a command's setting flags are split from its other arguments, each joined to its value; -- ends them")
    func splitting() {
        let (flags, others) = catalog.splittingFlags(["a.jpg", "--port", "9000", "--type", "room", "--log-format=json", "b.jpg", "--", "--port", "1"])
        #expect(flags == ["--port=9000", "--log-format=json"])
        #expect(others == ["a.jpg", "--type", "room", "b.jpg", "--", "--port", "1"])
        let trailing = catalog.splittingFlags(["x", "--port"])
        #expect(trailing.flags == ["--port"] && trailing.others == ["x"], "a flag without its value is left for values(fromFlags:) to refuse")
        #expect(throws: ConfigurationError(commandLine: "unknown option '--host'; `photo-validator validate --help` lists its settings")) {
            try catalog.values(fromFlags: ["--host=a"], listing: "`photo-validator validate --help` lists its settings")
        }
    }

    private enum Format: String, CaseIterable { case text, json }
}
