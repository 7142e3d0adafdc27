import ContentCheck
import Foundation
import HTTPTypes
import Hummingbird
import MultipartUpload
import PhotoStructure
import PhotoValidation
import SharedStore
import SignalForwarding
import Synchronization
import ValidationThreads

/// The validation endpoints: `POST /v1/validate` and the gateway-compatible upload.
struct ValidationController {
    let service: PhotoValidationService
    let forwarder: SignalForwarder?
    /// Keys of uploads being answered, so repeats take turns.
    let claims = IdempotencyClaims()

    func addRoutes(to router: Router<ValidationRequestContext>) {
        router.post("/v1/validate", use: validate)
        router.post("/api/v1/projects/:project_id/photos", use: upload)
        router.delete("/api/v1/projects/:project_id/photos/:photo_id", use: forget)
    }

    /// `POST /v1/validate`: a raw image body with `?photo_type=`, or multipart with `file` and
    /// `photo_type`; an optional `project_id` compares the photo with the project's accepted ones,
    /// and an optional `photo_id` remembers it, when it passes, under that id. The answer carries
    /// `details.fingerprint` only with `?details=fingerprint`.
    @Sendable func validate(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        let isMultipart = MultipartForm.isMultipart(request.headers[.contentType])
        let query = request.uri.queryParameters
        // Checked before the body is read; a form's own fields, when present, win.
        let queryPhotoType = try Self.photoType(query.get("photo_type").map { String($0) })
        let queryProject = try Self.projectFields(projectID: query.get("project_id").map { String($0) }, photoID: query.get("photo_id").map { String($0) })
        let answersFingerprint = try Self.answersFingerprint(query.getAll("details").map { String($0) })
        if isMultipart { try Self.checkBoundary(of: request) }
        return try await service.receiving(request, context: context) { body in
            let image: ByteBuffer
            let photoType: PhotoType
            var project = queryProject
            if isMultipart {
                let form = try Self.form(body, contentType: request.headers[.contentType]!)
                guard let file = form["file"] else { throw APIError.validationError("the multipart body has no 'file' part") }
                image = file.body
                photoType = try form.text("photo_type").map(Self.photoType) ?? queryPhotoType
                if form.text("project_id") != nil || form.text("photo_id") != nil {
                    project = try Self.projectFields(projectID: form.text("project_id") ?? queryProject?.id, photoID: form.text("photo_id") ?? queryProject?.photoID)
                }
            } else {
                image = body
                photoType = queryPhotoType
            }
            let cost = image.withUnsafeReadableBytes { DecodeCost(of: $0) }
            let (output, row) = try await service.admitted(record: context.record, ticket: context.admissionTicket, client: client(of: request, context: context, projectID: project?.id),
                                                           cost: cost) { slot -> (ValidatePhotoOutput, FingerprintRow?) in
                let checked = try await service.validate(image, as: photoType, in: slot, record: context.record, project: project,
                                                         answersFingerprint: answersFingerprint)
                guard let project, let photoID = project.photoID else { return (checked.output, nil) }
                return try await service.remember(checked, photoID: photoID, in: project.id, slot: slot, record: context.record)
            }
            if let row {
                do {
                    try await service.duplicates?.store.persist(row)
                } catch let error as OutboxError {
                    context.record.errorCause = error.description
                    throw APIError.outboxUnavailable(retryAfter: service.configuration.retryAfterSeconds)
                }
            }
            return try output.response(from: request, context: context)
        }
    }

    /// `DELETE /api/v1/projects/{project_id}/photos/{photo_id}`: the duplicate check forgets the
    /// photo (the gateway deleted it); answers whether it was remembered.
    @Sendable func forget(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        let projectID = try context.parameters.require("project_id")
        let photoID = try context.parameters.require("photo_id")
        guard let project = try Self.projectFields(projectID: projectID, photoID: photoID) else {
            throw APIError.validationError("the path names no project")
        }
        var forgotten = false
        if let duplicates = service.duplicates {
            do {
                forgotten = try await duplicates.forget(photoID: photoID, in: project.id)
            } catch {
                throw unavailable(error, context: context)
            }
        }
        return try AnswerEncoder.response(json: AnswerEncoder.json(ForgottenPhoto(projectID: projectID, photoID: photoID, forgotten: forgotten)))
    }

    /// Whether the `details` query parameters (each a comma-separated list) ask for the
    /// fingerprint in the answer; a 422 for a detail that is not offered.
    static func answersFingerprint(_ values: [String]) throws(APIError) -> Bool {
        var asked = false
        for name in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard name == "fingerprint" else {
                throw .validationError("details=\(name.prefix(64)) is not offered; the one optional detail is 'fingerprint'")
            }
            asked = true
        }
        return asked
    }

    /// The project and photo ids a request names, checked as the upload checks them; nil without a project.
    private static func projectFields(projectID: String?, photoID: String?) throws(APIError) -> (id: String, photoID: String?)? {
        guard let projectID else {
            if photoID != nil { throw .validationError("photo_id needs a project_id") }
            return nil
        }
        do {
            try PhotoUpload.checkProjectID(projectID)
            if let photoID { try PhotoUpload.checkPhotoID(photoID) }
        } catch {
            throw .validationError(error.description)
        }
        return (projectID, photoID)
    }

    /// Whose photo this is, for the worker pool's turns: the caller (`PhotoValidationService.caller(of:context:)`:
    /// the gateway's user header, the bearer token's name or the peer's IP address, never the project),
    /// and the project, when the request names one, as a sub-queue within that caller.
    private func client(of request: Request, context: ValidationRequestContext, projectID: String?) -> FairKey {
        FairKey(caller: service.caller(of: request, context: context), project: projectID ?? "")
    }

    /// A 400 before any byte of the body is read when the Content-Type's boundary is missing,
    /// over RFC 2046's 70 characters or holds a character it does not allow.
    private static func checkBoundary(of request: Request) throws(APIError) {
        do {
            _ = try MultipartForm.checkedBoundary(in: request.headers[.contentType] ?? "")
        } catch {
            throw .validationError(error.description, status: .badRequest)
        }
    }

    /// The multipart form in `body`, or a 422 saying what is wrong with it.
    private static func form(_ body: ByteBuffer, contentType: String) throws(APIError) -> MultipartForm {
        do {
            return try MultipartForm(body: body, contentType: contentType)
        } catch {
            throw .validationError(error.description)
        }
    }

    /// `POST /api/v1/projects/{project_id}/photos`: the gateway's upload; answers `{photo_id, validation}`.
    @Sendable func upload(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        let projectID = try context.parameters.require("project_id")
        // Checked before the body is read.
        do {
            try PhotoUpload.checkProjectID(projectID)
        } catch {
            throw APIError.validationError(error.description)
        }
        guard MultipartForm.isMultipart(request.headers[.contentType]) else {
            throw APIError.validationError("the upload must be multipart/form-data with a 'file' part")
        }
        try Self.checkBoundary(of: request)
        let key = try IdempotencyKey(request.headers[.idempotencyKey])
        let answersFingerprint = try Self.answersFingerprint(request.uri.queryParameters.getAll("details").map { String($0) })
        return try await service.receiving(request, context: context) { body in
            try await upload(body, request: request, context: context, projectID: projectID, key: key, answersFingerprint: answersFingerprint)
        }
    }

    private func upload(_ body: ByteBuffer, request: Request, context: ValidationRequestContext, projectID: String, key: IdempotencyKey?,
                        answersFingerprint: Bool) async throws -> Response {
        let form = try Self.form(body, contentType: request.headers[.contentType]!)
        guard let file = form["file"] else {
            throw APIError.validationError("the multipart body has no 'file' part")
        }
        let upload = try Self.photoUpload(projectID: projectID, photoType: try Self.photoType(form.text("photo_type")),
                                          note: form.text("note"), storageKey: form.text("storage_key"))
        // A keyed upload is hashed here, before it is validated; the same hash is the content check's cache key.
        let fileDigest = key.map { _ in file.body.withUnsafeReadableBytes { ContentCache.digest(of: $0) } }
        let digest = fileDigest.map { IdempotencyKey.digest(fileDigest: $0, photoType: upload.photoType, note: upload.note, storageKey: upload.storageKey) }
        // Repeats of a keyed upload take turns from here until the first one's answer is stored:
        // the first is validated, the others replay it, and a different photo with the key gets 422.
        let claim: IdempotencyClaims.Claim?
        if let key, forwarder != nil {
            claim = await claims.claim(key.value, in: projectID)
        } else {
            claim = nil
        }
        defer { claim?.release() }
        if let key, let digest, let forwarder, let earlier = try await storedAnswer(key, projectID: projectID, in: forwarder, context: context) {
            return try Self.replay(earlier, digest: digest)
        }
        // Without an outbox to remember it, a keyed upload's photo_id is derived from the key.
        let photoID = (forwarder == nil ? key?.photoID(projectID: projectID) : nil) ?? UUID().uuidString.lowercased()
        let photo = PhotoData(photoID: photoID, storageKey: upload.storageKey(photoID: photoID), photoType: upload.photoType.rawValue, note: upload.note)
        // With the shared store, a passed photo's signal and answer commit in the transaction that
        // remembers it, so that it is remembered exactly when it is promised.
        let committed = CommittedFlag()
        let output: ValidatePhotoOutput, row: FingerprintRow?
        do {
            let cost = file.body.withUnsafeReadableBytes { DecodeCost(of: $0) }
            (output, row) = try await service.admitted(record: context.record, ticket: context.admissionTicket, client: client(of: request, context: context, projectID: projectID),
                                                       cost: cost) { slot -> (ValidatePhotoOutput, FingerprintRow?) in
                // A keyed upload's answer is kept for its repeats, so it goes without the fingerprint (which
                // neither a repeat nor the gateway reads), the first time as well.
                let checked = try await service.validate(file.body, as: upload.photoType, in: slot, record: context.record, digest: fileDigest,
                                                         project: (projectID, photoID), answersFingerprint: answersFingerprint && key == nil)
                let alongside = try sharedStatement(for: checked.output, photo: photo, upload: upload, key: key, digest: digest, committed: committed)
                do {
                    return try await service.remember(checked, photoID: photoID, in: projectID, slot: slot, record: context.record, alongside: alongside)
                } catch let error as APIError where error.code == .photoIDConflict {
                    // Only a key-derived id can already be taken: by another photo sent with the same key.
                    throw APIError.idempotencyKeyReused
                }
            }
        } catch let earlier as SharedOutbox.EarlierAnswer {
            // Another replica answered the key first; nothing of this request was committed.
            return try Self.replay(earlier.upload, digest: digest ?? "")
        }
        let answer = try AnswerEncoder.json(UploadAnswer(photoID: photoID, validation: output))
        guard let forwarder else { return AnswerEncoder.response(json: answer) }
        if committed.isSet {
            forwarder.delivery.signalEnqueued()
            return AnswerEncoder.response(json: answer)
        }
        let promises = upload.promisesSignal(for: output)
        // The signal, the photo's fingerprint and the kept answer are on disk before the answer,
        // in one transaction: a 200 for a passed photo is a promise, and a photo not promised is
        // not remembered.
        do {
            if let key, let digest {
                let stored = try await forwarder.record(
                    IdempotentUpload(projectID: projectID, key: key.value, requestDigest: digest, photoID: photoID, answer: String(buffer: answer)),
                    promising: promises ? photo : nil, fingerprint: row
                )
                if stored.photoID != photoID {
                    if let row { service.duplicates?.store.withdraw(row) }
                    return try Self.replay(stored, digest: digest)
                }
            } else if promises {
                try await forwarder.promise(projectID: projectID, photo: photo, fingerprint: row)
            } else {
                try await service.duplicates?.store.persist(row)
            }
        } catch {
            // Nothing was promised: a retry of this photo must not be its own duplicate.
            if let row { service.duplicates?.store.withdraw(row) }
            let refusal = unavailable(error, context: context)
            // A verdict that promises nothing is still the verdict; only a promise needs the outbox.
            guard promises else { return AnswerEncoder.response(json: answer) }
            throw refusal
        }
        return AnswerEncoder.response(json: answer)
    }

    /// In the shared store, what commits with a passed photo when it is remembered: its signal and,
    /// for a keyed upload, its answer (the photo's answer as it stands: remembered, it is unchanged);
    /// `committed` is set when it has run.
    private func sharedStatement(for output: ValidatePhotoOutput, photo: PhotoData, upload: PhotoUpload, key: IdempotencyKey?,
                                 digest: String?, committed: CommittedFlag) throws -> SharedStatement? {
        guard let forwarder, forwarder.shared != nil, service.duplicates?.shared != nil, output.passed else { return nil }
        var answer: IdempotentUpload?
        if let key, let digest {
            let json = try AnswerEncoder.json(UploadAnswer(photoID: photo.photoID, validation: output))
            answer = IdempotentUpload(projectID: upload.projectID, key: key.value, requestDigest: digest, photoID: photo.photoID, answer: String(buffer: json))
        }
        guard let statement = try forwarder.sharedStatement(projectID: upload.projectID, promising: upload.promisesSignal(for: output) ? photo : nil,
                                                            answer: answer) else { return nil }
        return { connection in
            try await statement(connection)
            committed.set()
        }
    }

    /// The 503 for a store that could not be read or written: `store_unavailable` for the shared
    /// store, `outbox_unavailable` for this replica's outbox; its cause goes in the request's record.
    private func unavailable(_ error: any Error, context: ValidationRequestContext) -> APIError {
        if let error = error as? APIError { return error }
        if error is SharedStoreError { return service.storeUnavailable(error, record: context.record) }
        context.record.errorCause = String(describing: error)
        return .outboxUnavailable(retryAfter: service.configuration.retryAfterSeconds)
    }

    /// The answer stored for `key`, or nil; a 503 when the outbox cannot be read.
    private func storedAnswer(_ key: IdempotencyKey, projectID: String, in forwarder: SignalForwarder, context: ValidationRequestContext) async throws(APIError) -> IdempotentUpload? {
        do {
            return try await forwarder.storedAnswer(projectID: projectID, key: key.value)
        } catch {
            throw unavailable(error, context: context)
        }
    }

    /// The stored answer again, marked as a replay; 422 when the key answered a different upload.
    private static func replay(_ earlier: IdempotentUpload, digest: String) throws -> Response {
        guard earlier.requestDigest == digest else { throw APIError.idempotencyKeyReused }
        return AnswerEncoder.response(json: ByteBuffer(string: earlier.answer), headers: [.idempotentReplayed: "true"])
    }


    /// The upload's fields as a `PhotoUpload`, or the 422 for the rule they break.
    private static func photoUpload(projectID: String, photoType: PhotoType, note: String?, storageKey: String?) throws(APIError) -> PhotoUpload {
        do {
            return try PhotoUpload(projectID: projectID, photoType: photoType, note: note, storageKey: storageKey)
        } catch {
            switch error {
            case .noteNotAllowed: throw .noteNotAllowed
            case .noteTooLong(let maximum): throw .noteTooLong(maximum: maximum)
            case .projectID, .photoID, .storageKeyTooLong: throw .validationError(error.description)
            }
        }
    }

    /// The photo type named by a form field or query parameter; `room` when absent.
    static func photoType(_ value: String?) throws(APIError) -> PhotoType {
        guard let value else { return .room }
        guard let photoType = PhotoType(rawValue: value) else {
            throw .validationError("photo_type must be 'room' or 'inspiration', got '\(value)'")
        }
        return photoType
    }
}

/// Whether the shared store committed a photo's signal and answer with the photo, set by the
/// statement that wrote them inside its transaction.
private final class CommittedFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Marks the statement as run.
    func set() { value.store(true, ordering: .releasing) }

    /// Whether the statement ran (the transaction committed when `remember` returned).
    var isSet: Bool { value.load(ordering: .acquiring) }
}
