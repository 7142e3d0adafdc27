import Configuration
import ContentCheck
import Foundation
import PhotoValidation
import PhotoValidatorServer
import Testing
import ValidatorConfiguration

@Suite("Every default is its setting's declaration", .timeLimit(.minutes(10)))
struct ServiceConfigurationDefaultsTests {
    /// The configuration `environment` resolves to, with no flags, file or credentials.
    private func resolved(_ environment: [String: String] = [:]) throws -> ServiceConfiguration {
        let audit = ConfigurationAudit()
        let configuration = try ServiceConfiguration(reader: ConfigurationSources.reader(flags: [:], environment: environment, audit: audit))
        try audit.checkConversions()
        return configuration
    }

    @Test("every literal default is a value its setting accepts, within its range")
    func literalDefaultsAreAccepted() throws {
        for setting in ServiceConfiguration.allSettings.settings {
            guard let text = setting.literalDefault else { continue }
            let content = try setting.content(ofFlagValue: text)
            switch (setting.kind, content) {
            case (.integer(let range), .int(let value)): #expect(range.contains(value), "\(setting.key)")
            case (.number(let range), .double(let value)): #expect(range.contains(value), "\(setting.key)")
            case (.seconds, .double(let value)): #expect(value > 0 && value <= 1_000_000, "\(setting.key)")
            case (.choice(let choices), .string(let value)): #expect(choices.contains(value.lowercased()) || value == "auto", "\(setting.key)")
            default: break
            }
        }
    }

    @Test("with nothing set, the configuration is the declared defaults, and each is the one shown in the settings table")
    func defaults() throws {
        let configuration = try resolved()
        #expect(configuration.port == Int(Setting.httpPort.literalDefault!))
        #expect(configuration.validationTimeout == .seconds(Double(Setting.limitsValidationTimeoutSeconds.literalDefault!)!))
        #expect(configuration.content.timeout == .seconds(Double(Setting.contentTimeoutSeconds.literalDefault!)!))
        #expect(configuration.validation.decodeMemoryBudget == ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: Int(Setting.pixelLimit.literalDefault!)!))
        #expect(configuration.validation.roomMinimumShortSide == Int(Setting.roomMinSide.literalDefault!))
        #expect(configuration.validation == ValidationSettings())
        #expect(configuration.signal.retry.maximumAge == .seconds(48 * 3600))
        #expect(ServiceConfiguration().port == configuration.port && ContentCheckConfiguration().policy == .off)
    }

    @Test("the queue's default is 16 per worker, computed from the workers setting in one place")
    func queuePerWorker() throws {
        #expect(try resolved(["PHOTO_VALIDATOR_LIMITS_WORKERS": "3"]).queueLimit == 48)
        #expect(try resolved(["PHOTO_VALIDATOR_LIMITS_WORKERS": "3", "PHOTO_VALIDATOR_LIMITS_QUEUE": "5"]).queueLimit == 5)
        let machine = try resolved()
        #expect(machine.queueLimit == 16 * machine.workers)
        #expect(Setting.limitsQueue.literalDefault == nil && Setting.limitsQueue.defaultValue == "16 per worker")
    }

    @Test("the content check's defaults that follow the provider are computed from it")
    func contentDefaults() throws {
        let openai = try resolved(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "openai", "PHOTO_VALIDATOR_CONTENT_MODEL": "m"]).content
        #expect(openai.baseURL == "https://api.openai.com" && openai.policy == .failOpen)
        #expect(ContentCheckConfiguration().baseURL == "https://api.anthropic.com")
        #expect(ContentCheckConfiguration().inputDollarsPerMillionTokens == 1 && ContentCheckConfiguration().outputDollarsPerMillionTokens == 5)
    }
}
