import Foundation
import Hummingbird
import MultipartUpload
import PhotoValidation
import SignalForwarding

/// The validation endpoints: `POST /v1/validate` and the gateway-compatible upload.
struct ValidationController {
    /// Notes on inspiration photos are at most this many characters.
    static let maximumNoteLength = 200

    let service: PhotoValidationService
    let forwarder: SignalForwarder?

    func addRoutes(to router: Router<ValidationRequestContext>) {
        router.post("/v1/validate", use: validate)
        router.post("/api/v1/projects/:project_id/photos", use: upload)
    }

    /// `POST /v1/validate`: a raw image body with `?photo_type=`, or multipart with `file` and `photo_type`.
    @Sendable func validate(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        try await service.admitted(record: context.record) { slot in
            try await validate(request, context: context, slot: slot)
        }
    }

    private func validate(_ request: Request, context: ValidationRequestContext, slot: ValidationWorkerPool.Slot) async throws -> Response {
        let body = try await service.receiveBody(of: request)
        let image: ByteBuffer
        let typeField: String?
        if MultipartForm.isMultipart(request.headers[.contentType]) {
            let form = try Self.form(body, contentType: request.headers[.contentType]!)
            guard let file = form["file"] else { throw APIError.validationError("the multipart body has no 'file' part") }
            image = file.body
            typeField = form.text("photo_type") ?? request.uri.queryParameters.get("photo_type")
        } else {
            image = body
            typeField = request.uri.queryParameters.get("photo_type")
        }
        let photoType = try Self.photoType(typeField)
        let output = try await service.validate(image, as: photoType, in: slot, record: context.record)
        return try Response.json(output)
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
        guard Self.isPlainIdentifier(projectID) else {
            throw APIError.validationError("project_id must be 1 to 256 of A-Z a-z 0-9 . _ : - (and not . or ..)")
        }
        guard MultipartForm.isMultipart(request.headers[.contentType]) else {
            throw APIError.validationError("the upload must be multipart/form-data with a 'file' part")
        }
        return try await service.admitted(record: context.record) { slot in
            try await upload(request, context: context, projectID: projectID, slot: slot)
        }
    }

    private func upload(_ request: Request, context: ValidationRequestContext, projectID: String, slot: ValidationWorkerPool.Slot) async throws -> Response {
        let body = try await service.receiveBody(of: request)
        let form = try Self.form(body, contentType: request.headers[.contentType]!)
        guard let file = form["file"] else {
            throw APIError.validationError("the multipart body has no 'file' part")
        }
        let photoType = try Self.photoType(form.text("photo_type"))
        let note = form.text("note").flatMap { $0.isEmpty ? nil : $0 }
        if let note {
            guard photoType == .inspiration else { throw APIError.noteNotAllowed }
            // Counted in code points, as the gateway's Pydantic model counts them.
            guard note.unicodeScalars.count <= Self.maximumNoteLength else { throw APIError.noteTooLong(maximum: Self.maximumNoteLength) }
        }
        let photoID = UUID().uuidString.lowercased()
        let storageKey = form.text("storage_key").flatMap { $0.isEmpty ? nil : $0 }
            ?? "projects/\(projectID)/photos/\(photoType.rawValue)_\(photoID).jpg"
        guard storageKey.utf8.count <= 1024 else {
            throw APIError.validationError("storage_key must be at most 1024 bytes")
        }
        let output = try await service.validate(file.body, as: photoType, in: slot, record: context.record)
        if output.passed, let forwarder {
            // The signal is on disk before the answer: a 200 for a passed photo is a promise.
            do {
                try await forwarder.promise(projectID: projectID, photo: PhotoData(photoID: photoID, storageKey: storageKey, photoType: photoType.rawValue, note: note))
            } catch {
                context.record.note = error.description
                throw APIError.outboxUnavailable(retryAfter: service.configuration.retryAfterSeconds)
            }
        }
        return try Response.json(UploadAnswer(photoID: photoID, validation: output))
    }

    /// True for a workflow id that is safe in a URL path and an object key.
    static func isPlainIdentifier(_ value: String) -> Bool {
        (1...256).contains(value.utf8.count) && value != "." && value != ".."
            && value.utf8.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || "._:-".utf8.contains($0)) }
    }

    /// The photo type named by a form field or query parameter; `room` when absent.
    static func photoType(_ value: String?) throws(APIError) -> PhotoType {
        guard let value, !value.isEmpty else { return .room }
        guard let photoType = PhotoType(rawValue: value) else {
            throw .validationError("photo_type must be 'room' or 'inspiration', got '\(value)'")
        }
        return photoType
    }
}
