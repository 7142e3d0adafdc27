import DecodeSandbox
import Logging
import PhotoChecks
import PhotoValidation

extension PhotoValidator {
    /// A validator that decodes where `settings.decodeIsolation` says: in sandboxed workers started
    /// from `settings.decodeWorkerExecutable` (one kept per validating thread, `threads`, and a
    /// stopped one's replacement reported to `logger`, standard error by default, when it cannot be started), or in
    /// this process. With workers, this process sets up no decoder: only `decode_isolation = none`
    /// starts libvips here. The commands are the composition root: the daemon's module links
    /// neither decoder and is handed what this makes (`buildApplication(configuration:logger:)`).
    ///
    /// - Throws: `DecodeFailure` when libvips cannot start (in this process), `SandboxError` when no worker can.
    package static func configured(settings: ValidationSettings, threads: Int, photoTimeLimit: Duration, logger: Logger = .commandLine) throws -> PhotoValidator {
        switch settings.decodeIsolation {
        case .none:
            return try PhotoValidator(settings: settings)
        case .process:
            var options = SandboxOptions(executable: settings.decodeWorkerExecutable, maximumIdle: threads, photoTimeLimit: photoTimeLimit)
            options.allowsTestRequests = settings.decodeWorkerTestRequests
            options.workerUser = try WorkerUser(named: settings.decodeWorkerUser)
            options.cpuLifetime = max(.seconds(1800), options.cpuRetirement * 10)
            options.logger = logger
            return PhotoValidator(settings: settings, decoding: try SandboxedDecoding(settings: settings, options: options))
        }
    }
}
