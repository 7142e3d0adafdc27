import Foundation
import Testing
@testable import PhotoValidation

@Suite("The ValidatePhotoOutput contract", .timeLimit(.minutes(10)))
struct ContractTests {
    @Test("every code has the gateway's message for each photo type")
    func messages() {
        #expect(FailureCode.invalidImage.message(for: .room, minimumShortSide: 1024) == "Could not open image. Please upload a valid JPEG, PNG, HEIC or WebP photo.")
        #expect(FailureCode.lowResolution.message(for: .room, minimumShortSide: 1024) == "This photo is too low resolution. Please use a higher quality image.")
        #expect(FailureCode.lowResolution.message(for: .inspiration, minimumShortSide: 400) == "This inspiration photo is too small (minimum 400px). Please choose a larger image.")
        #expect(FailureCode.lowResolution.message(for: .inspiration, minimumShortSide: 640) == "This inspiration photo is too small (minimum 640px). Please choose a larger image.")
        #expect(FailureCode.blurry.message(for: .room, minimumShortSide: 1024) == "This photo looks blurry. Please retake with a steady hand.")
        #expect(FailureCode.blurry.message(for: .inspiration, minimumShortSide: 400) == "This photo looks too blurry. Please choose a clearer image.")
        #expect(FailureCode.tooManyPeople.message(for: .room, minimumShortSide: 1024) == "This looks like a photo of people, not a room. Please upload a photo of your space.")
        #expect(FailureCode.contentRejected.message(for: .room, minimumShortSide: 1024) == "We couldn't identify a room in this photo. Please upload a photo of an interior space.")
        #expect(FailureCode.contentRejected.message(for: .inspiration, minimumShortSide: 400) == "Inspiration photos should show spaces, furniture, or design details — not people or animals. Please choose a different image.")
        #expect(FailureCode.contentCheckUnavailable.message(for: .room, minimumShortSide: 1024) == "We couldn't check this photo right now. Please try again in a moment.")
        for photoType in [PhotoType.room, .inspiration] {
            #expect(FailureCode.tooDark.message(for: photoType, minimumShortSide: 1024) == "This photo is too dark to see clearly. Turn on the lights or open the curtains and try again.")
            #expect(FailureCode.overexposed.message(for: photoType, minimumShortSide: 1024) == "This photo is washed out by too much light. Avoid pointing at a bright window or lamp and try again.")
            #expect(FailureCode.duplicatePhoto.message(for: photoType, minimumShortSide: 1024) == "You've already added this photo to this project. Please choose a different one.")
        }
    }

    @Test("codes are spelled as the gateway spells them")
    func codes() {
        #expect(FailureCode.allCases.map(\.rawValue) == [
            "invalid_image", "low_resolution", "blurry", "too_many_people", "content_rejected", "content_check_unavailable",
            "too_dark", "overexposed", "duplicate_photo",
        ])
    }

    @Test("a passed photo has no failures and the single great message")
    func passed() {
        let output = ValidatePhotoOutput(failures: [], photoType: .room, minimumShortSide: 1024,
                                         details: ValidationDetails(photoType: .room, minimumShortSide: 1024, blurThreshold: 1))
        #expect(output.passed)
        #expect(output.messages == ["Photo looks great!"])
    }

    @Test("messages[i] explains failures[i]")
    func messagesFollowFailures() {
        let output = ValidatePhotoOutput(failures: [.lowResolution, .blurry], photoType: .room, minimumShortSide: 1024,
                                         details: ValidationDetails(photoType: .room, minimumShortSide: 1024, blurThreshold: 1))
        #expect(!output.passed)
        #expect(output.messages == [
            FailureCode.lowResolution.message(for: .room, minimumShortSide: 1024),
            FailureCode.blurry.message(for: .room, minimumShortSide: 1024),
        ])
    }

    @Test("the JSON has the gateway's field names and snake_case details")
    func json() throws {
        var details = ValidationDetails(photoType: .inspiration, minimumShortSide: 400, blurThreshold: 20)
        details.format = "jpeg"
        details.width = 800
        details.height = 600
        details.blurScore = 12.5
        details.laplacianVariance = 12.5
        let output = ValidatePhotoOutput(failures: [.blurry], photoType: .inspiration, minimumShortSide: 400, details: details)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(output)) as! [String: Any]
        #expect(Set(object.keys) == ["passed", "failures", "messages", "details"])
        #expect(object["failures"] as? [String] == ["blurry"])
        let encodedDetails = object["details"] as! [String: Any]
        #expect(encodedDetails["blur_score"] as? Double == 12.5)
        #expect(encodedDetails["laplacian_variance"] as? Double == 12.5)
        #expect(encodedDetails["format"] as? String == "jpeg")
        #expect(encodedDetails["photo_type"] as? String == "inspiration")
        #expect((encodedDetails["timings_ms"] as? [String: Any])?.keys.sorted() == ["blur", "decode", "exposure", "fingerprint", "header", "luma", "total"])
        let decoded = try JSONDecoder().decode(ValidatePhotoOutput.self, from: JSONEncoder().encode(output))
        // Compared outside #expect: its operator expansion crashed (a bad pointer in
        // _callBinaryOperator) on this value once details grew, with Swift 6.3.1's Testing.
        let roundTrips = decoded == output
        #expect(roundTrips)
    }
}
