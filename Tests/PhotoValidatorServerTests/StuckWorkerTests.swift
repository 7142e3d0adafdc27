import Foundation
import Hummingbird
import HummingbirdTesting
import PhotoValidation
@testable import PhotoValidatorServer
import TestFixtures
import Testing
import ValidationThreads

@Suite("Deadlines and stuck workers", .timeLimit(.minutes(2)))
struct StuckWorkerTests {
    @Test("a validation still decoding at its deadline is answered 503 validation_timeout, and the daemon keeps answering")
    func deadlineHoldsDuringDecode() async throws {
        try await withLiveApp({ $0.workers = 1; $0.validationTimeout = .milliseconds(1) }) { client, _ in
            let body = try testdataBytes("photos/outdoor-dandelions-bokeh.jpg")
            let response = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: body)
            try expectError(response, status: .serviceUnavailable, code: "validation_timeout")
            #expect(response.headers[.retryAfter] != nil)
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok, "stuck for less than the unhealthy limit is still healthy")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_rejected_total{reason=\"timeout\"} 1"))
        }
    }

    @Test("a worker stuck past the limit turns /healthz unhealthy while stand-ins keep validating; it recovers when the worker returns")
    func stuckWorkerIsReported() async throws {
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 0; $0.stuckWorkerUnhealthyAfter = .milliseconds(200) }) { client, app in
            let gate = Gate()
            let pool = app.service.pool
            // What a decoder caught in an endless loop looks like to the pool.
            await #expect(throws: ThreadPoolError.self) {
                try await pool.run(runLimit: .milliseconds(20)) { gate.wait() }
            }
            let upload = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: try testdataBytes("photos/cups.jpg"))
            #expect(upload.status == .ok, "a stand-in thread serves uploads while the stuck one is held")
            try await Task.sleep(for: .milliseconds(300))
            let unhealthy = try await client.execute(uri: "/healthz", method: .get)
            #expect(unhealthy.status == .serviceUnavailable)
            #expect(String(buffer: unhealthy.body).contains("restart the process"))
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok, "one stuck worker within the stand-in allowance does not take the daemon out of rotation")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_workers_stuck 1"))
            #expect(metrics.contains("photo_validator_worker_threads 2"))
            gate.open(1)
            while pool.health.overdueJobs > 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test("with more stuck workers than stand-ins, /readyz says so")
    func readinessTellsTheTruth() async throws {
        try await withLiveApp({ $0.workers = 1 }) { client, app in
            let gate = Gate()
            let pool = app.service.pool
            for _ in 0...pool.maximumReplacements {
                await #expect(throws: ThreadPoolError.self) {
                    try await pool.run(runLimit: .milliseconds(20)) { gate.wait() }
                }
            }
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(String(buffer: ready.body).contains("stuck in a decoder"))
            gate.open(pool.maximumReplacements + 1)
        }
    }

    @Test("the hostile uploads are answered invalid_image and the daemon answers the next photo")
    func hostileUploads() async throws {
        try await withLiveApp { client, _ in
            for file in ["hostile/gzip-trailing-byte.jpg", "hostile/cups-height-x4.jpg", "hostile/gzip-trailing-byte.jpg"] {
                let response = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: try testdataBytes(file))
                #expect(response.status == .ok)
                let output = try jsonObject(response)
                #expect(output["failures"] as? [String] == ["invalid_image"], "\(file)")
            }
            let good = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: try testdataBytes("photos/cups.jpg"))
            #expect((try jsonObject(good))["passed"] as? Bool == true)
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
        }
    }
}
