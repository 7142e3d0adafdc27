import PostgresNIO

/// The outbox's statements on an upload's path, prepared once per connection (PostgresNIO prepares
/// a statement by its name the first time a connection runs it).
enum OutboxStatements {
    /// Stores the answer to a keyed upload unless the key has a live answer (one younger than the
    /// cutoff, `$7`): an expired one is replaced in the same statement. Returns a row when stored;
    /// none when another request's answer stands.
    struct Answer: PostgresPreparedStatement {
        static let name = "photo_validator.outbox.answer.v1"
        static let sql = """
            INSERT INTO photo_validator.idempotent_upload AS kept (project_id, key, request_digest, photo_id, answer, created_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (project_id, key) DO UPDATE SET request_digest = EXCLUDED.request_digest, photo_id = EXCLUDED.photo_id,
                answer = EXCLUDED.answer, created_at = EXCLUDED.created_at
            WHERE kept.created_at < $7
            RETURNING photo_id
            """
        let upload: (projectID: String, key: String, digest: String, photoID: String, answer: ByteBuffer, createdAt: Double)
        let cutoff: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(upload.projectID)
            bindings.append(upload.key)
            bindings.append(upload.digest)
            bindings.append(upload.photoID)
            bindings.append(upload.answer)
            bindings.append(upload.createdAt)
            bindings.append(cutoff)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String {
            try row.decode(String.self)
        }
    }

    /// `Answer` and, only when the answer was stored, the photo's signal, in one statement (one
    /// round trip on the upload's path). Returns a row when both were stored; none when another
    /// request's answer stands (then nothing was written).
    struct AnswerAndSignal: PostgresPreparedStatement {
        static let name = "photo_validator.outbox.answer-and-signal.v1"
        static let sql = """
            WITH answer AS (
                INSERT INTO photo_validator.idempotent_upload AS kept (project_id, key, request_digest, photo_id, answer, created_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (project_id, key) DO UPDATE SET request_digest = EXCLUDED.request_digest, photo_id = EXCLUDED.photo_id,
                    answer = EXCLUDED.answer, created_at = EXCLUDED.created_at
                WHERE kept.created_at < $7
                RETURNING photo_id),
            signal AS (
                INSERT INTO photo_validator.signal (photo_id, workflow_id, signal_name, payload, enqueued_at, age_from, next_attempt_at)
                SELECT photo_id, $8, $9, $10, $6, $6, $6 FROM answer
                RETURNING photo_id)
            SELECT photo_id FROM signal
            """
        let answer: Answer
        let workflowID: String
        let signalName: String
        let payload: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = try answer.makeBindings()
            bindings.append(workflowID)
            bindings.append(signalName)
            bindings.append(payload)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String {
            try row.decode(String.self)
        }
    }

    /// Promises a photo's signal.
    struct Signal: PostgresPreparedStatement {
        static let name = "photo_validator.outbox.signal.v1"
        static let sql = """
            INSERT INTO photo_validator.signal (photo_id, workflow_id, signal_name, payload, enqueued_at, age_from, next_attempt_at)
            VALUES ($1, $2, $3, $4, $5, $5, $5)
            """
        let photoID: String
        let workflowID: String
        let signalName: String
        let payload: String
        let time: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(photoID)
            bindings.append(workflowID)
            bindings.append(signalName)
            bindings.append(payload)
            bindings.append(time)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }
}
