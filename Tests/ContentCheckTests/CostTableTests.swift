import ContentCheck
import Foundation
import PhotoChecks
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

/// docs/content-check.md's cost per photo against what the stand-in reports, as the provider bills
/// (about width x height / 750 image tokens), for the previews of real photos at both bounds.
@Suite("The cost table of docs/content-check.md", .integration,
       .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/photos beside the checkout"), .timeLimit(.minutes(10)))
struct CostTableTests {
    @Test("an 18 MP portrait JPEG and a 12 MP 4:3 HEIC cost what the table says")
    func costPerPhoto() async throws {
        let document = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/content-check.md"), encoding: .utf8)
        let imageTokens = try #require(document.firstMatch(of: #/\*\*about ([0-9,]+) image tokens\*\*/#)).output.1.replacingOccurrences(of: ",", with: "")
        let dollars = try #require(document.firstMatch(of: #/\*\*about \$([0-9.]+) per photo\*\*/#)).output.1
        let stated = (tokens: try #require(Int(imageTokens)), cost: try #require(Double(dollars)))
        let previews = PreviewBounds()
        for name in ["photos/room-bathroom-1.jpg", "photos/room-couch-pug.heic"] {
            let url = try #require(Fixtures.sharedFile(name))
            let data = try Data(contentsOf: url)
            let validator = try PhotoValidator(settings: ValidationSettings())
            let made = data.withUnsafeBytes { validator.validate($0, as: .room, previews: previews).preview }
            let preview = try #require(try made?.get())
            try await withStandIn(.anthropic, script: { _, _ in labels("interior_room") }) { classifier, standIn, _ in
                let result = await classifier.check(preview: .success(preview), digest: name, as: .room)
                let request = try #require(standIn.received.first)
                let image = try #require(JPEGInspection(request.image))
                let input = try #require(result.details.inputTokens), output = try #require(result.details.outputTokens)
                let cost = Double(input) * classifier.configuration.inputDollarsPerMillionTokens / 1e6
                    + Double(output) * classifier.configuration.outputDollarsPerMillionTokens / 1e6
                print("cost per photo: \(name) preview \(image.width)x\(image.height), \(ProviderStandIn.imageTokens(preview.jpeg)) image tokens, "
                    + "\(input) in / \(output) out, $\(String(format: "%.5f", cost))")
                #expect(abs(ProviderStandIn.imageTokens(preview.jpeg) - stated.tokens) <= 10, "\(name): the table's image tokens")
                #expect(abs(cost - stated.cost) < 0.00006, "\(name): the table's cost per photo")
            }
        }
    }
}
