import PhotoValidation
import Testing

@Suite("The gateway's upload rules", .timeLimit(.minutes(10)))
struct PhotoUploadTests {
    @Test("a note is allowed on an inspiration photo up to 200 code points; an empty one counts as none")
    func notes() throws {
        let combining = String(repeating: "e\u{301}", count: 100)  // 100 characters, 200 code points
        #expect(try PhotoUpload(projectID: "p", photoType: .inspiration, note: String(repeating: "é", count: 200), storageKey: nil).note?.count == 200)
        #expect(try PhotoUpload(projectID: "p", photoType: .inspiration, note: combining, storageKey: nil).note == combining)
        #expect(throws: UploadRuleViolation.noteTooLong(maximum: 200)) {
            try PhotoUpload(projectID: "p", photoType: .inspiration, note: combining + "x", storageKey: nil)
        }
        #expect(throws: UploadRuleViolation.noteNotAllowed) {
            try PhotoUpload(projectID: "p", photoType: .room, note: "nice", storageKey: nil)
        }
        #expect(try PhotoUpload(projectID: "p", photoType: .room, note: "", storageKey: "").note == nil)
    }

    @Test("project ids are plain identifiers of 1 to 256 bytes, never . or ..",
          arguments: [("proj-42", true), ("a.b_c:d-E9", true), (String(repeating: "p", count: 256), true), ("", false), (".", false), ("..", false),
                      ("a/b", false), ("a b", false), ("é", false), (String(repeating: "p", count: 257), false)])
    func projectIDs(projectID: String, valid: Bool) {
        let accepted = (try? PhotoUpload(projectID: projectID, photoType: .room, note: nil, storageKey: nil)) != nil
        #expect(accepted == valid)
    }

    @Test("the storage key is the one given (at most 1024 bytes), else the project's default path")
    func storageKeys() throws {
        let defaulted = try PhotoUpload(projectID: "proj-1", photoType: .inspiration, note: nil, storageKey: nil)
        #expect(defaulted.storageKey(photoID: "abc") == "projects/proj-1/photos/inspiration_abc.jpg")
        let given = try PhotoUpload(projectID: "proj-1", photoType: .room, note: nil, storageKey: String(repeating: "k", count: 1024))
        #expect(given.storageKey(photoID: "abc").count == 1024)
        #expect(throws: UploadRuleViolation.storageKeyTooLong(maximum: 1024)) {
            try PhotoUpload(projectID: "proj-1", photoType: .room, note: nil, storageKey: String(repeating: "é", count: 513))
        }
    }

    @Test("only a passed photo promises a signal")
    func promise() throws {
        let upload = try PhotoUpload(projectID: "p", photoType: .room, note: nil, storageKey: nil)
        let details = ValidationDetails(photoType: .room, minimumShortSide: 1024, blurThreshold: 24)
        let passed = ValidatePhotoOutput(failures: [], photoType: .room, minimumShortSide: 1024, details: details)
        let failed = ValidatePhotoOutput(failures: [.blurry], photoType: .room, minimumShortSide: 1024, details: details)
        #expect(upload.promisesSignal(for: passed))
        #expect(!upload.promisesSignal(for: failed))
    }
}
