import PostgresNIO

/// The project memory's statements, prepared once per connection (PostgresNIO prepares a
/// statement by its name the first time a connection runs it).
enum ProjectMemoryStatements {
    /// A fingerprint row as read: sequence, photo id, fingerprint bytes, cost, time.
    typealias Row = (sequence: Int64, photoID: String, fingerprint: ByteBuffer, bytes: Int32, createdAt: Double)

    /// A project's newest photos within the retention period, newest first.
    struct Newest: PostgresPreparedStatement {
        static let name = "photo_validator.memory.newest.v1"
        static let sql = """
            SELECT sequence, photo_id, fingerprint, bytes, created_at FROM photo_validator.photo_fingerprint
            WHERE project_id = $1 AND created_at >= $2 ORDER BY sequence DESC LIMIT $3
            """
        let projectID: String
        let cutoff: Double
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(projectID)
            bindings.append(cutoff)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (sequence, photoID, fingerprint, bytes, createdAt) = try row.decode((Int64, String, ByteBuffer, Int32, Double).self)
            return (sequence, photoID, fingerprint, bytes, createdAt)
        }
    }

    /// A project's photos remembered after a sequence, within the retention period, oldest first.
    struct Arrived: PostgresPreparedStatement {
        static let name = "photo_validator.memory.arrived.v1"
        static let sql = """
            SELECT sequence, photo_id, fingerprint, bytes, created_at FROM photo_validator.photo_fingerprint
            WHERE project_id = $1 AND sequence > $2 AND created_at >= $3 ORDER BY sequence LIMIT $4
            """
        let projectID: String
        let after: Int64
        let cutoff: Double
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(projectID)
            bindings.append(after)
            bindings.append(cutoff)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (sequence, photoID, fingerprint, bytes, createdAt) = try row.decode((Int64, String, ByteBuffer, Int32, Double).self)
            return (sequence, photoID, fingerprint, bytes, createdAt)
        }
    }

    /// One photo of a project, by id.
    struct Photo: PostgresPreparedStatement {
        static let name = "photo_validator.memory.photo.v1"
        static let sql = """
            SELECT sequence, photo_id, fingerprint, bytes, created_at FROM photo_validator.photo_fingerprint
            WHERE project_id = $1 AND photo_id = $2
            """
        let projectID: String
        let photoID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(projectID)
            bindings.append(photoID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (sequence, photoID, fingerprint, bytes, createdAt) = try row.decode((Int64, String, ByteBuffer, Int32, Double).self)
            return (sequence, photoID, fingerprint, bytes, createdAt)
        }
    }

    /// Remembers a photo; returns its sequence.
    struct Insert: PostgresPreparedStatement {
        static let name = "photo_validator.memory.insert.v1"
        static let sql = """
            INSERT INTO photo_validator.photo_fingerprint (project_id, photo_id, fingerprint, bytes, created_at)
            VALUES ($1, $2, $3, $4, $5) RETURNING sequence
            """
        let projectID: String
        let photoID: String
        let fingerprint: ByteBuffer
        let bytes: Int32
        let createdAt: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(projectID)
            bindings.append(photoID)
            bindings.append(fingerprint)
            bindings.append(bytes)
            bindings.append(createdAt)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 {
            try row.decode(Int64.self)
        }
    }

    /// Forgets a project's photos beyond its newest `limit`, and those older than the cutoff;
    /// returns the photo ids forgotten, with whether it was for age.
    struct Trim: PostgresPreparedStatement {
        static let name = "photo_validator.memory.trim.v1"
        static let sql = """
            DELETE FROM photo_validator.photo_fingerprint WHERE project_id = $1 AND (created_at < $2 OR sequence <= COALESCE((
                SELECT sequence FROM photo_validator.photo_fingerprint WHERE project_id = $1 ORDER BY sequence DESC OFFSET $3 LIMIT 1), 0))
            RETURNING photo_id, created_at < $2
            """
        let projectID: String
        let cutoff: Double
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(projectID)
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
