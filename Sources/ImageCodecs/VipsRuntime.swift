import CVips
import Foundation
import PhotoFormat
import Synchronization

/// Process-wide libvips set-up: one initialisation, only the allowed loaders, no operation cache.
public enum VipsRuntime {
    /// The libvips loader classes left unblocked; everything else that loads is refused.
    static let allowedLoaders = ImageFormat.allCases.compactMap(\.vipsLoader)

    // vips_thread_shutdown before vips_init aborts in GLib, and a pool may run jobs that never decode.
    private static let started = Atomic<Bool>(false)

    private static let initialization: Result<Void, DecodeFailure> = {
        guard vips_init("photo-validator") == 0 else {
            return .failure(DecodeFailure(.libraryFailure, "libvips failed to initialise: \(takeErrorMessage())"))
        }
        // A daemon decodes untrusted bytes: block every loader, then allow exactly JPEG, PNG and WebP.
        pv_silence_warnings()
        // 4 MiB: decoder frames stay mmapped, upload copies of a few MiB stay cheap. Measured:
        // validate --jobs 2 over ../shared/photos, peak RSS 241 -> 164 MiB.
        pv_set_mmap_threshold(4 << 20)
        vips_block_untrusted_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in allowedLoaders {
            vips_operation_block_set(loader, 0)
        }
        // Parallelism comes from requests, and a cache would keep decoded pixels alive.
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_concurrency_set(1)
        started.store(true, ordering: .releasing)
        return .success(())
    }()

    /// Initialises libvips once; later calls return at once. Throws when libvips cannot start.
    public static func start() throws(DecodeFailure) {
        try initialization.get()
    }

    /// True once `start()` has set libvips up in this process.
    public static var isStarted: Bool { started.load(ordering: .acquiring) }

    /// The libvips version, such as `8.14.1`.
    public static var version: String {
        "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))"
    }

    /// Frees libvips' per-thread buffers on a thread libvips did not create; a no-op before `start()`.
    public static func releaseThreadResources() {
        guard started.load(ordering: .acquiring) else { return }
        vips_thread_shutdown()
    }

    /// Reads and clears libvips' (process-global) error buffer, for diagnostics only.
    static func takeErrorMessage() -> String {
        // Copies and clears under libvips' own lock; other threads write to the same buffer.
        guard let buffer = vips_error_buffer_copy() else { return "" }
        defer { g_free(buffer) }
        let message = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "no detail from libvips" : message.replacingOccurrences(of: "\n", with: "; ")
    }
}
