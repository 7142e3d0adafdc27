import Foundation
import PhotoChecks
import PhotoValidation
import ValidationThreads

extension TuneCommand {
    /// Validates each of `files` as `types[i]` on a worker pool of `jobs` threads, with the progress
    /// bar: what every `--check` measures its photos with, each within `deadline`
    /// (`limits.validation_timeout_seconds`). Outcomes are in the order of `files`.
    func outcomes(of files: [String], as types: [PhotoType], validator: PhotoValidator, deadline: Duration) async -> [PhotoFileCheck.Outcome] {
        let pool = ValidationThreadPool(threadCount: jobs, queueLimit: jobs, defaultTimeout: deadline, threadExit: validator.releaseThreadResources)
        pool.start()
        var progress = ProgressBar(total: files.count, enabled: !noProgress)
        var outcomes = [PhotoFileCheck.Outcome?](repeating: nil, count: files.count)
        var done = 0
        var cache: ScoresCache?
        // With --report every photo is decoded for its thumbnail, so the cache is not read.
        if let scoresCache, report == nil {
            do {
                let environment = ProcessInfo.processInfo.environment
                let keyFile = try await settingFlags.scoresCacheKeyFile(Self.settingsCatalog, command: "tune", environment: environment)
                cache = try ScoresCache(path: scoresCache, key: ScoresCacheKey.resolve(keyFile: keyFile, environment: environment))
            } catch {
                // Tuning without the cache measures the same figures, only slower.
                StandardStreams.error("photo-validator: warning: \(error); measuring every photo")
            }
        }
        let checker = PhotoFileCheck(validator: validator, classifier: nil, pool: pool, scoresCache: cache,
                                     thumbnails: report == nil ? nil : ReportFolder.thumbnailBounds)
        await BoundedTaskGroup.run(Array(zip(files, types)), width: 2 * jobs) { file, type in
            await checker.check(path: file, as: type)
        } consume: { index, outcome in
            outcomes[index] = outcome
            done += 1
            progress.update(done: done)
        }
        progress.finish()
        await pool.shutdown()
        if let cache {
            cache.close()
            StandardStreams.error(cache.summaryLine)
        }
        return outcomes.map { $0 ?? .unreadable("not checked") }
    }
}
