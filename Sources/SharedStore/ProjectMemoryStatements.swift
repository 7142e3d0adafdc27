import PostgresNIO

/// The project memory's statements, prepared once per connection (PostgresNIO prepares a
/// statement by its name the first time a connection runs it).
enum ProjectMemoryStatements {
    /// A fingerprint row as read: sequence, photo id, fingerprint bytes, cost, time.
    typealias Row = (sequence: Int64, photoID: String, fingerprint: ByteBuffer, bytes: Int32, createdAt: Double)

    /// A project's newest photos within the retention period, newest first, the fingerprint's
    /// bytes left out (NULL) for the sequences the reader has parsed already.
    struct Newest: PostgresPreparedStatement {
        static let name = "photo_validator.memory.newest.v2"
        static let sql = """
            SELECT sequence, photo_id, CASE WHEN sequence = ANY($4) THEN NULL ELSE fingerprint END, bytes, created_at
            FROM photo_validator.photo_fingerprint WHERE project_id = $1 AND created_at >= $2 ORDER BY sequence DESC LIMIT $3
            """
        let projectID: String
        let cutoff: Double
        let limit: Int64
        let known: [Int64]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(projectID)
            bindings.append(cutoff)
            bindings.append(limit)
            bindings.append(known)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (sequence: Int64, photoID: String, fingerprint: ByteBuffer?, bytes: Int32, createdAt: Double) {
            let (sequence, photoID, fingerprint, bytes, createdAt) = try row.decode((Int64, String, ByteBuffer?, Int32, Double).self)
            return (sequence, photoID, fingerprint, bytes, createdAt)
        }
    }

    /// The photo of a project under an id, if any, and the project's photos remembered after a
    /// sequence within the retention period, oldest first: what `remember` reads under the lock,
    /// in one round trip. Unbounded: each insert trims its project to its newest photos.
    struct Arrived: PostgresPreparedStatement {
        static let name = "photo_validator.memory.arrived.v2"
        static let sql = """
            SELECT sequence, photo_id, fingerprint, bytes, created_at FROM photo_validator.photo_fingerprint
            WHERE project_id = $1 AND (photo_id = $2 OR (sequence > $3 AND created_at >= $4)) ORDER BY sequence
            """
        let projectID: String
        let photoID: String
        let after: Int64
        let cutoff: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(projectID)
            bindings.append(photoID)
            bindings.append(after)
            bindings.append(cutoff)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (sequence, photoID, fingerprint, bytes, createdAt) = try row.decode((Int64, String, ByteBuffer, Int32, Double).self)
            return (sequence, photoID, fingerprint, bytes, createdAt)
        }
    }

    /// Remembers a photo and, in the same statement, forgets the project's photos that are
    /// expired or beyond its newest `limit` with the new one; returns the ids forgotten, with
    /// whether it was for age. The delete sees the rows as they were before the insert, so it
    /// keeps `limit - 1` of them.
    struct Insert: PostgresPreparedStatement {
        static let name = "photo_validator.memory.insert.v2"
        static let sql = """
            WITH inserted AS (
                INSERT INTO photo_validator.photo_fingerprint (project_id, photo_id, fingerprint, bytes, created_at)
                VALUES ($1, $2, $3, $4, $5) RETURNING sequence)
            DELETE FROM photo_validator.photo_fingerprint WHERE project_id = $1 AND (created_at < $6 OR sequence <= COALESCE((
                SELECT sequence FROM photo_validator.photo_fingerprint WHERE project_id = $1 ORDER BY sequence DESC OFFSET $7 - 1 LIMIT 1), 0))
            RETURNING photo_id, created_at < $6
            """
        let projectID: String
        let photoID: String
        let fingerprint: ByteBuffer
        let bytes: Int32
        let createdAt: Double
        let cutoff: Double
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(projectID)
            bindings.append(photoID)
            bindings.append(fingerprint)
            bindings.append(bytes)
            bindings.append(createdAt)
            bindings.append(cutoff)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (photoID: String, expired: Bool) {
            let (photoID, expired) = try row.decode((String, Bool).self)
            return (photoID, expired)
        }
    }
}
