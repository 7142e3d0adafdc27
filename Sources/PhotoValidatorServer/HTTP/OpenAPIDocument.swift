/// The OpenAPI 3.1 description of the HTTP API, served at `/openapi.yaml`.
///
/// Kept in the binary rather than as a resource file, so a daemon installed as a single file
/// still serves it. A test checks that its paths are exactly the routes served.
enum OpenAPIDocument {
    /// The document text.
    static let text = #"""
openapi: 3.1.0
info:
  title: photo-validator
  version: 1.0.0
  description: |
    Checks photos uploaded to the room-redesign app: decodable (JPEG, PNG, WebP, HEIC), large enough,
    sharp enough. Answers with the gateway's ValidatePhotoOutput plus measured details. When a bearer
    token is configured every route except /healthz requires `Authorization: Bearer <token>`: the
    shared token, or a named one (`auth.tokens`), whose name is then the caller in fair admission.
    Photos are queued per caller (the configured user header, else the named token, else the peer's
    address) and, within a caller, per project; callers are served in turn.
    Every answer carries `X-Request-ID` (the client's, when it sends a plain one, or a new one).
servers:
  - url: http://127.0.0.1:8080
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  parameters:
    PhotoType:
      name: photo_type
      in: query
      required: false
      schema: {type: string, enum: [room, inspiration], default: room}
    Details:
      name: details
      in: query
      required: false
      description: Optional details to add to the answer, comma-separated (or the parameter repeated); `fingerprint` is the one offered (details.fingerprint). Another name is 422 validation_error.
      schema: {type: string, enum: [fingerprint]}
  schemas:
    FailureCode:
      type: string
      enum: [invalid_image, low_resolution, blurry, too_many_people, content_rejected, content_check_unavailable, too_dark, overexposed, duplicate_photo]
    APIErrorCode:
      type: string
      description: The stable code of an error answer.
      enum: [body_too_slow, decoder_unavailable, file_too_large, idempotency_key_reused, internal_error, method_not_allowed, not_found, note_not_allowed, note_too_long, outbox_disabled, outbox_unavailable, overloaded, photo_id_conflict, request_timeout, shutting_down, store_unavailable, unauthorized, validation_error, validation_timeout]
    Timings:
      type: object
      description: Milliseconds per stage.
      properties:
        header: {type: number}
        decode: {type: number}
        luma: {type: number}
        blur: {type: number}
        exposure: {type: number, description: the exposure figures}
        fingerprint: {type: number, description: 'the duplicate fingerprint (global hashes and local features); 0 when none was made (no project, duplicates off, nor ?details=fingerprint)'}
        content_preview: {type: number}
        content: {type: number}
        total: {type: number}
    Details:
      type: object
      description: Measured figures; clients that do not know them ignore them.
      properties:
        photo_type: {type: string, enum: [room, inspiration]}
        format: {type: string, enum: [jpeg, png, webp, heif]}
        width: {type: integer, description: after EXIF orientation}
        height: {type: integer, description: after EXIF orientation}
        orientation: {type: integer, minimum: 1, maximum: 8}
        minimum_short_side: {type: integer}
        blur_score: {type: number, description: the figure compared with blur_threshold}
        blur_threshold: {type: number}
        laplacian_variance: {type: number}
        blur_probability: {type: number, minimum: 0, maximum: 1, description: 'the blur model''s probability that the photo is blurred, from its sharpest tiles on the analysis plane (absent when the plane is under one 64 px tile); decides blurry with blur.judge = model'}
        blur_probability_threshold: {type: number, description: the probability from which blur.judge = model calls the photo blurry}
        analysis_width: {type: integer}
        analysis_height: {type: integer}
        decode_scale: {type: number}
        exposure:
          type: object
          description: The figures the exposure check judged (too_dark, overexposed), on the analysis plane's luma (0-255).
          properties:
            mean: {type: number}
            p1: {type: integer}
            p5: {type: integer}
            p10: {type: integer, description: 'overexposed needs it at least exposure.washed_out_p10 (the darkest tenth lifted too)'}
            p50: {type: integer}
            p90: {type: integer, description: 'too_dark when under exposure.dark_p90'}
            p95: {type: integer}
            p99: {type: integer}
            shadow_share: {type: number, description: share of samples at most 16}
            highlight_share: {type: number, description: 'share of samples at least 250; overexposed when at least exposure.clipped_share and p10 at least exposure.washed_out_p10'}
        fingerprint: {type: string, maxLength: 10316, description: 'only with ?details=fingerprint: the photo''s fingerprint the duplicate check compares, base64 of its bytes (version 3: four rotation hashes, 128 local features spread over the frame and two bits of fine detail for at most 12,288 cells; at most 7,736 bytes, 10,316 as base64); a gateway may keep it'}
        duplicate_of: {type: string, description: the id of the project's earlier photo this one duplicates (duplicate_photo)}
        error: {type: string, description: why the photo is invalid_image, e.g. pixel_limit_exceeded}
        error_detail: {type: string}
        timings_ms: {$ref: '#/components/schemas/Timings'}
    ValidatePhotoOutput:
      type: object
      required: [passed, failures, messages, details]
      properties:
        passed: {type: boolean, description: true exactly when failures is empty}
        failures:
          type: array
          items: {$ref: '#/components/schemas/FailureCode'}
        messages:
          type: array
          description: messages[i] explains failures[i]; a passed photo has ["Photo looks great!"]
          items: {type: string}
        details: {$ref: '#/components/schemas/Details'}
    UploadAnswer:
      type: object
      required: [photo_id, validation]
      properties:
        photo_id: {type: string, format: uuid}
        validation: {$ref: '#/components/schemas/ValidatePhotoOutput'}
    Error:
      type: object
      required: [error, message, retryable, detail]
      properties:
        error: {$ref: '#/components/schemas/APIErrorCode'}
        message: {type: string}
        retryable: {type: boolean}
        detail: {type: [string, 'null']}
    Status:
      type: object
      properties:
        status: {type: string}
        reasons: {type: string}
        decode_worker_restarts: {type: object, additionalProperties: {type: integer}, description: '/readyz: decode workers replaced since start, by reason (decoder_crashed, decode_timeout, memory_limit_exceeded)'}
  responses:
    Error:
      description: An error in the gateway's shape.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Busy:
      description: Saturated, timed out, shutting down, no decode worker can be started (decoder_unavailable), or the outbox or shared store (store_unavailable) cannot be written; retry after Retry-After seconds.
      headers:
        Retry-After: {schema: {type: integer}}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
security:
  - bearer: []
  - {}
paths:
  /v1/validate:
    post:
      summary: Validate one photo.
      description: The raw image as the body (photo_type as a query parameter), or multipart/form-data with a file part and a photo_type field. An empty body is answered 200 with invalid_image. With project_id the photo is compared with the project's accepted photos (duplicate_photo); with photo_id as well a passed photo is remembered under that id (a photo_id the project remembers with another photo is 409).
      parameters:
        - $ref: '#/components/parameters/PhotoType'
        - name: project_id
          in: query
          required: false
          schema: {type: string, minLength: 1, maxLength: 256}
        - name: photo_id
          in: query
          required: false
          description: the gateway's id for this photo; needs project_id
          schema: {type: string, minLength: 1, maxLength: 256}
        - $ref: '#/components/parameters/Details'
      requestBody:
        required: false
        content:
          image/*:
            schema: {type: string, format: binary}
          application/octet-stream:
            schema: {type: string, format: binary}
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: string, format: binary}
                photo_type: {type: string, enum: [room, inspiration]}
                project_id: {type: string}
                photo_id: {type: string}
      responses:
        '200':
          description: The validation, whether or not the photo passed.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ValidatePhotoOutput'}
        '400':
          description: The multipart boundary is missing, over RFC 2046's 70 characters, or holds a character it does not allow (validation_error; the body is not read).
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '408': {$ref: '#/components/responses/Error'}
        '409':
          description: photo_id already names a different photo of the project (photo_id_conflict); nothing was changed.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
        '500': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Busy'}
  /api/v1/projects/{project_id}/photos:
    post:
      summary: The gateway-compatible upload.
      parameters:
        - name: project_id
          in: path
          required: true
          schema: {type: string, minLength: 1, maxLength: 256}
        - name: Idempotency-Key
          in: header
          required: false
          description: The gateway's request id. A repeat of the same upload within 24 hours gets the first answer (same photo_id, no second signal) with Idempotent-Replayed true; a keyed upload's answer, the first one too, comes without details.fingerprint even with ?details=fingerprint; a different upload with the same key gets 422 idempotency_key_reused. Kept in the outbox; without forwarding the photo_id is derived from the key.
          schema: {type: string, minLength: 1, maxLength: 255, pattern: '^[!-~]+$'}
        - $ref: '#/components/parameters/Details'
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: string, format: binary}
                photo_type: {type: string, enum: [room, inspiration], default: room}
                note: {type: string, maxLength: 200, description: inspiration photos only (422 note_not_allowed on a room photo)}
                storage_key: {type: string}
      responses:
        '200':
          description: The new photo id and its validation, whether or not it passed. For a passed photo the photo_added signal is committed to the outbox before this answer.
          headers:
            Idempotent-Replayed:
              description: true when this is the stored answer to an earlier upload with the same Idempotency-Key.
              schema: {type: string, enum: ['true']}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/UploadAnswer'}
        '400':
          description: The multipart boundary is missing, over RFC 2046's 70 characters, or holds a character it does not allow (validation_error; the body is not read).
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '408': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
        '500': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Busy'}
  /api/v1/projects/{project_id}/photos/{photo_id}:
    delete:
      summary: Forget a photo for the project's duplicate check (the gateway deleted it).
      parameters:
        - name: project_id
          in: path
          required: true
          schema: {type: string, minLength: 1, maxLength: 256}
        - name: photo_id
          in: path
          required: true
          schema: {type: string, minLength: 1, maxLength: 256}
      responses:
        '200':
          description: Whether the photo was remembered; a later upload of it is no longer a duplicate.
          content:
            application/json:
              schema:
                type: object
                required: [project_id, photo_id, forgotten]
                properties:
                  project_id: {type: string}
                  photo_id: {type: string}
                  forgotten: {type: boolean}
        '401': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Busy'}
  /v1/outbox:
    get:
      summary: The signal outbox - counts by state, the oldest pending age, and the newest dead letters.
      parameters:
        - name: limit
          in: query
          required: false
          schema: {type: integer, minimum: 1, maximum: 500, default: 20}
      responses:
        '200':
          description: The admin view.
          content:
            application/json:
              schema:
                type: object
                properties:
                  target: {type: string, enum: [temporal, webhook]}
                  outbox: {type: string}
                  counts:
                    type: object
                    properties:
                      pending: {type: integer}
                      delivered: {type: integer}
                      dead: {type: integer}
                      oldest_pending_age_seconds: {type: [number, 'null']}
                  dead_letters:
                    type: array
                    items:
                      type: object
                      properties:
                        photo_id: {type: string}
                        workflow_id: {type: string}
                        signal_name: {type: string}
                        attempts: {type: integer}
                        reason: {type: string}
                        enqueued_at: {type: string, format: date-time}
                        dead_at: {type: string, format: date-time}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
  /v1/outbox/retry:
    post:
      summary: Requeue dead letters (all, or the one for photo_id) with a fresh age window.
      parameters:
        - name: photo_id
          in: query
          required: false
          schema: {type: string}
      responses:
        '200':
          description: How many were requeued.
          content:
            application/json:
              schema:
                type: object
                properties:
                  requeued: {type: integer}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /healthz:
    get:
      summary: Liveness; never needs a token.
      security: []
      responses:
        '200':
          description: The process is alive.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Status'}
  /readyz:
    get:
      summary: Readiness to take work (libvips decodes, not draining).
      responses:
        '200':
          description: "Ready: status ready, or degraded with reasons (the content provider refuses requests as configured; photos take the content policy)."
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Status'}
        '503':
          description: Not ready, with reasons.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Status'}
  /metrics:
    get:
      summary: Prometheus metrics.
      responses:
        '200':
          description: Prometheus text exposition format 0.0.4.
          content:
            text/plain:
              schema: {type: string}
  /openapi.yaml:
    get:
      summary: This document.
      responses:
        '200':
          description: OpenAPI 3.1.
          content:
            application/yaml:
              schema: {type: string}
"""#
}
