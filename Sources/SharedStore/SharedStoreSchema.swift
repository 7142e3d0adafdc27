import Logging
import PostgresNIO

/// The shared store's tables, in the schema `photo_validator` of the database, as numbered
/// migrations: each replica applies the missing ones at start, one replica at a time (a session
/// advisory lock), and records each in `photo_validator.schema_version` in the migration's own
/// transaction, so a replica stopped midway leaves the schema at a version it knows.
package enum SharedStoreSchema {
    /// One step of the schema.
    package struct Migration: Sendable {
        /// Its number; migrations apply in increasing order.
        package let version: Int
        /// What it does, for the log.
        package let summary: String
        /// Its statements, run in one transaction.
        package let statements: [String]
    }

    /// The advisory lock migrations take (a key in the two-integer space, apart from the per-project locks').
    static let migrationLock: (Int32, Int32) = (0x7076_5300, 0)

    /// The advisory locks of projects' decisions (`SharedProjectMemory.remember`): a key space of
    /// the two-integer form, apart from the migration lock's, the second half the project id's hash
    /// (a collision only serializes two projects, never lets two decisions of one project interleave).
    static let projectLockSpace: Int32 = 0x7076_5301

    /// Every migration this build knows, oldest first.
    package static let migrations: [Migration] = [
        Migration(version: 1, summary: "project memory: accepted photos' fingerprints by project", statements: [
            """
            CREATE TABLE photo_validator.photo_fingerprint (
                sequence bigserial PRIMARY KEY,
                project_id text NOT NULL,
                photo_id text NOT NULL,
                fingerprint bytea NOT NULL,
                bytes integer NOT NULL,
                created_at double precision NOT NULL,
                UNIQUE (project_id, photo_id)
            )
            """,
            // A project's photos are read newest first by this index alone.
            "CREATE INDEX photo_fingerprint_project ON photo_validator.photo_fingerprint (project_id, sequence)",
            "CREATE INDEX photo_fingerprint_age ON photo_validator.photo_fingerprint (created_at)",
        ]),
        Migration(version: 2, summary: "the outbox and idempotent answers: promised signals and the answers to keyed uploads", statements: [
            """
            CREATE TABLE photo_validator.signal (
                id bigserial PRIMARY KEY,
                photo_id text NOT NULL UNIQUE,
                workflow_id text NOT NULL,
                signal_name text NOT NULL,
                payload text NOT NULL,
                state text NOT NULL DEFAULT 'pending',
                attempts integer NOT NULL DEFAULT 0,
                enqueued_at double precision NOT NULL,
                age_from double precision NOT NULL,
                next_attempt_at double precision NOT NULL,
                last_error text,
                dead_reason text,
                finished_at double precision
            )
            """,
            // Replicas claim due signals by this index alone; the finished ones are not in it.
            "CREATE INDEX signal_due ON photo_validator.signal (next_attempt_at, id) WHERE state = 'pending'",
            """
            CREATE TABLE photo_validator.idempotent_upload (
                project_id text NOT NULL,
                key text NOT NULL,
                request_digest text NOT NULL,
                photo_id text NOT NULL,
                answer bytea NOT NULL,
                created_at double precision NOT NULL,
                PRIMARY KEY (project_id, key)
            )
            """,
            "CREATE INDEX idempotent_upload_age ON photo_validator.idempotent_upload (created_at)",
        ]),
    ]

    /// The newest version this build knows.
    package static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the schema to `currentVersion` over `connection`, under the migration lock; returns
    /// the versions applied (none when another replica got there first).
    ///
    /// - Throws: `SharedStoreError.schemaTooNew` when the database is ahead of this build, or the
    ///   database's error.
    @discardableResult
    package static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        let (lockSpace, lockKey) = migrationLock
        try await connection.query("SELECT pg_advisory_lock(\(lockSpace), \(lockKey))", logger: logger)
        do {
            let applied = try await migrateLocked(connection, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(lockSpace), \(lockKey))", logger: logger)
            return applied
        } catch {
            // The lock is the session's: a connection that goes back to the pool must not keep it.
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockSpace), \(lockKey))", logger: logger)
            throw error
        }
    }

    private static func migrateLocked(_ connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        try await connection.query("CREATE SCHEMA IF NOT EXISTS photo_validator", logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS photo_validator.schema_version (
                version integer PRIMARY KEY, summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        let found = try await version(connection, logger: logger)
        guard found <= currentVersion else { throw SharedStoreError.schemaTooNew(found: found, known: currentVersion) }
        var applied: [Int] = []
        for migration in migrations where migration.version > found {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO photo_validator.schema_version (version, summary) VALUES (\(migration.version), \(migration.summary))",
                    logger: logger)
            }
            logger.notice("the shared store's schema is at version \(migration.version): \(migration.summary)")
            applied.append(migration.version)
        }
        return applied
    }

    /// The version the database's schema is at (0 before the first migration).
    package static func version(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query("SELECT COALESCE(MAX(version), 0) FROM photo_validator.schema_version", logger: logger)
        for try await (version) in rows.decode(Int.self) { return version }
        return 0
    }
}
