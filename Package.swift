// swift-tools-version: 6.2
// 6.2: swift-subprocess, swift-service-lifecycle, swift-service-context, swift-prometheus and
// swift-metrics declare it, so an older toolchain fails at resolution.
import Foundation
import PackageDescription

// The blur kernel's vector loops need SSE4.1 (32-bit lane multiplies) to be fast; every x86-64
// server CPU since 2008 (Nehalem) has it. Other architectures use the compiler's default.
// The kernel is optimised in debug builds too: unoptimised SIMD code is a hundred times slower,
// and the tests score hundreds of real photos.
#if arch(x86_64)
let kernelSettings: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "nehalem"]), .unsafeFlags(["-O"], .when(configuration: .debug))]
#else
let kernelSettings: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
#endif

// The blur kernels' and the duplicate fingerprint's AVX2 paths (BlurMetricsAVX2, FingerprintAVX2) are
// compiled for Haswell (AVX2, 2013) and run only where the CPU reports AVX2 (`KernelPath`, checked by
// the baseline code); elsewhere the SSE paths run.
#if arch(x86_64)
let avx2KernelSettings: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"]), .unsafeFlags(["-O"], .when(configuration: .debug))]
#else
let avx2KernelSettings = kernelSettings
#endif

// The decoder's pixel loops (the HEIC plane's rotation) are optimised in debug builds for the same reason.
let decoderSettings: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

// The git revision `--version` shows: scripts/build-release and the Dockerfile pass it in
// PHOTO_VALIDATOR_GIT_REVISION; a plain `swift build` says "unknown". Only characters that are safe
// as a bare C token are kept.
let gitRevision: String = {
    let raw = Context.environment["PHOTO_VALIDATOR_GIT_REVISION"] ?? ""
    let kept = String(raw.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "+") }.prefix(64))
    return kept.isEmpty ? "unknown" : kept
}()

// The Swift packages `--version --verbose` names, from the reviewed list (dependencies.txt), as one
// bare token such as `hummingbird=2.28.1;swift-nio=2.101.3` (stringified in CReleaseInfo).
let packageVersions: String = {
    let list = (try? String(contentsOfFile: Context.packageDirectory + "/dependencies.txt", encoding: .utf8)) ?? ""
    let pairs = list.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").joined(separator: "=") }
    let kept = pairs.joined(separator: ";").filter { $0.isASCII && ($0.isLetter || $0.isNumber || ".-=;".contains($0)) }
    return kept.isEmpty ? "unknown" : kept
}()

let package = Package(
    name: "photo-validator",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photo-validator", targets: ["photo-validator"]),
        .executable(name: "photo-validator-harness", targets: ["photo-validator-harness"]),
        .library(name: "PhotoValidation", targets: ["PhotoValidation", "PhotoChecks"]),
    ],
    // Pinned to the minor versions the tests prove; every resolved package and its version is in
    // dependencies.txt, which scripts/check-dependencies compares with the build's.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/apple/swift-nio.git", .upToNextMinor(from: "2.101.2")),
        .package(url: "https://github.com/apple/swift-nio-extras.git", .upToNextMinor(from: "1.35.2")),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", .upToNextMinor(from: "1.0.2")),
        .package(url: "https://github.com/apple/swift-system.git", .upToNextMinor(from: "1.8.1")),
        .package(url: "https://github.com/apple/swift-log.git", .upToNextMinor(from: "1.16.2")),
        .package(url: "https://github.com/apple/swift-configuration.git", .upToNextMinor(from: "1.4.0")),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", .upToNextMinor(from: "2.28.1")),
        .package(url: "https://github.com/apple/swift-http-types.git", .upToNextMinor(from: "1.8.0")),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", .upToNextMinor(from: "2.13.0")),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", .upToNextMinor(from: "2.4.1")),
        .package(url: "https://github.com/vapor/multipart-kit.git", .upToNextMinor(from: "4.7.1")),
        .package(url: "https://github.com/groue/GRDB.swift.git", .upToNextMinor(from: "7.10.0")),
        .package(url: "https://github.com/swift-server/async-http-client.git", .upToNextMinor(from: "1.37.0")),
        .package(url: "https://github.com/apple/swift-crypto.git", .upToNextMinor(from: "3.12.3")),
        .package(url: "https://github.com/swiftcsv/SwiftCSV.git", .upToNextMinor(from: "0.10.0")),
        .package(url: "https://github.com/vapor/postgres-nio.git", .upToNextMinor(from: "1.33.2")),
    ],
    targets: [
        // The C API of libvips; imported only by ImageCodecs.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // libjpeg-turbo for JPEG pixels: luma at DCT scale, setjmp error handling, warnings classified.
        .target(name: "CLibJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // FFmpeg's HEVC decoder for HEIC tiles: one thread, errors fatal, planes copied out.
        .target(name: "CLibAVCodec", linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        // libwebp for still WebP pixels: decoded once into one buffer the decoder owns (libvips' loader copied the canvas twice).
        .target(name: "CLibWebP", linkerSettings: [.linkedLibrary("webp")]),
        // The values that cross the worker wall (formats, headers, decode failures, previews and
        // their bounds): pure Swift, no C, so the daemon's side need not link a decoder for them.
        .target(name: "PhotoFormat"),
        // A photo's structure read from its bytes in Swift alone, before any C library sees them:
        // the format sniff, the declared size, the cost caps, the HEIF container. No C, so the
        // daemon gives each photo its deadline and memory share without linking a decoder. Its
        // pixel loops (the HEIC plane's rotation) are optimised in debug builds as the decoder's are.
        .target(name: "PhotoStructure", dependencies: ["PhotoFormat"], swiftSettings: decoderSettings),
        // The one module that owns libvips, libjpeg, libavcodec, libwebp and every C pointer.
        .target(name: "ImageCodecs", dependencies: ["PhotoFormat", "PhotoStructure", "CVips", "CLibJPEG", "CLibAVCodec", "CLibWebP"], swiftSettings: decoderSettings),
        // The blur kernel: Swift (on x86-64 one byte shuffle through the compiler's intrinsics), no I/O; its one
        // C dependency is CCPUFeatures' CPU check.
        .target(name: "BlurMetrics", dependencies: ["BlurMetricsAVX2", "CCPUFeatures"], swiftSettings: kernelSettings),
        // One C function: whether the CPU runs code built for Haswell (AVX2, FMA, BMI1/2, LZCNT, MOVBE,
        // F16C) and the OS saves the AVX registers (CPUID and XCR0, which Swift cannot read). No pointers, no I/O.
        .target(name: "CCPUFeatures"),
        // The blur kernels' AVX2 row loops, built for Haswell and called by BlurMetrics only on a CPU
        // with AVX2: raw pointers and the compiler's intrinsics, no generic code (which another
        // module could share and run on a CPU without AVX2). Tested through BlurMetricsTests.
        .target(name: "BlurMetricsAVX2", swiftSettings: avx2KernelSettings),
        // The duplicate fingerprint's AVX2 loops (FAST's candidate test, the pyramid's bilinear step, the
        // descriptor blur, the halving and quartering, the Harris sums), built for Haswell and called by LumaAnalysis only where BlurMetrics' KernelPath
        // chose AVX2: raw pointers and intrinsics, no generic code, as BlurMetricsAVX2. Tested through
        // LumaAnalysisTests.
        .target(name: "FingerprintAVX2", swiftSettings: avx2KernelSettings),
        // The blur model's inference (issue 64, models/blur/SPEC.md): the analysis plane's tiles, their detail
        // scores and the network, its weights compiled in (BlurModelWeights, generated by the training's
        // export). Pure Swift, no I/O; optimised in debug builds as the kernels are.
        .target(name: "BlurModel", dependencies: ["BlurMetrics", "BlurModelAVX2"], swiftSettings: kernelSettings),
        // The blur model's AVX2 loops (the convolution with FMA, the detail score's rows), built for Haswell and
        // called by BlurModel only where KernelPath chose AVX2: raw pointers and intrinsics, no generic code, as
        // BlurMetricsAVX2. Tested through BlurModelTests.
        .target(name: "BlurModelAVX2", swiftSettings: avx2KernelSettings),
        // Exposure figures and the duplicate fingerprint of the analysis plane: pure Swift, no C, no I/O.
        .target(name: "LumaAnalysis", dependencies: ["BlurMetrics", "FingerprintAVX2"], swiftSettings: kernelSettings),
        // The one weighted semaphore behind every budget: upload bytes, decode memory, provider calls.
        .target(name: "Admission"),
        // The contract (ValidatePhotoOutput, codes, messages), the upload rules and the validator,
        // which checks photos through the decoding it is handed and links no decoder: the public
        // library product, with PhotoChecks for decoding in the caller's process.
        .target(name: "PhotoValidation", dependencies: ["Admission", "PhotoFormat", "PhotoStructure", "BlurMetrics", "BlurModel", "LumaAnalysis"]),
        // The checks run in this process: decode, measure, judge, preview. The worker's side of the
        // wall: what a decode worker runs, `PhotoValidator(settings:)` and `decode_isolation = none`.
        .target(name: "PhotoChecks", dependencies: ["Admission", "PhotoFormat", "PhotoValidation", "ImageCodecs", "BlurMetrics", "BlurModel", "LumaAnalysis"]),
        // Process isolation for decoders: spawning workers, rlimits, seccomp (libseccomp); imported
        // only by DecodeSandbox.
        .target(name: "CSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        // Decoding in sandboxed worker processes, the daemon's side: framing, the worker client and
        // set, each photo's deadline and memory share from its declared size. Links no decoder.
        .target(
            name: "DecodeSandbox",
            dependencies: [
                "Admission", "CSandbox", "PhotoFormat", "PhotoStructure", "PhotoValidation", "BlurMetrics", "LumaAnalysis",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The worker host: what `decode-worker` runs inside the sandbox, on the worker's side of the wall.
        .target(name: "DecodeWorker", dependencies: ["DecodeSandbox", "PhotoChecks", "PhotoFormat", "PhotoValidation"]),
        // The worker threads that run decodes: deadlines that hold while C code runs (handed to
        // each job as a parameter), stand-ins for stuck threads, bounded admission; its decisions
        // are a pure state machine tested without threads.
        .target(name: "ValidationThreads"),
        // How settings are read: flags over environment over file over defaults, with an audit.
        .target(
            name: "ValidatorConfiguration",
            dependencies: [
                "PhotoValidation",
                "BlurMetrics",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Threshold tuning on labelled photos: ROC, per-threshold metrics, the report and chart.
        .target(name: "BlurTuning", dependencies: ["PhotoValidation"]),
        // The durable outbox and delivery of `photo_added` to Temporal or a webhook.
        .target(
            name: "SignalForwarding",
            dependencies: [
                "LumaAnalysis",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The store replicas share (`store.url`): project memory, idempotent answers and the outbox
        // in PostgreSQL, behind the same interfaces as SignalForwarding's SQLite store.
        .target(
            name: "SharedStore",
            dependencies: [
                "SignalForwarding",
                "LumaAnalysis",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Parsing of untrusted multipart/form-data bodies, apart from HTTP so it can be fuzzed alone.
        .target(
            name: "MultipartUpload",
            dependencies: [
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The content check: vision-model providers, policy, retries, breaker, cache.
        .target(
            name: "ContentCheck",
            dependencies: [
                "Admission",
                "PhotoValidation",
                "ValidatorConfiguration",
                "PhotoFormat",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The daemon: HTTP API, configuration, logging, metrics, graceful shutdown. It links no
        // decoder nor the sandbox that starts one: it is handed a ready validator by the commands
        // (scripts/check-imports fails it if it imports PhotoChecks, DecodeSandbox or DecodeWorker).
        .target(
            name: "PhotoValidatorServer",
            dependencies: [
                "Admission",
                "PhotoValidation",
                "LumaAnalysis",
                "ValidationThreads",
                "ValidatorConfiguration",
                "SignalForwarding",
                "SharedStore",
                "MultipartUpload",
                "ContentCheck",
                "PhotoFormat",
                "PhotoStructure",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "MultipartKit", package: "multipart-kit"),
            ]
        ),
        // The build's git revision, for `--version`.
        .target(name: "CReleaseInfo", cSettings: [
            .define("PHOTO_VALIDATOR_GIT_REVISION", to: gitRevision), .define("PHOTO_VALIDATOR_PACKAGES", to: packageVersions),
        ]),
        .target(
            name: "PhotoValidatorCLI",
            dependencies: [
                "CReleaseInfo",
                "PhotoChecks",
                "PhotoFormat",
                "PhotoStructure",
                "PhotoValidation",
                "ValidationThreads",
                "ValidatorConfiguration",
                "BlurTuning",
                "BlurMetrics",
                "LumaAnalysis",
                "ContentCheck",
                "PhotoValidatorServer",
                "DecodeSandbox",
                "DecodeWorker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]
        ),
        .executableTarget(name: "photo-validator", dependencies: ["PhotoValidatorCLI"]),

        // libFuzzer targets (scripts/fuzz builds them with -sanitize=fuzzer); built normally they
        // replay files, so the corpus and every finding run as plain regression inputs too.
        .target(name: "FuzzDriver", path: "Fuzz/Driver"),
        .executableTarget(name: "fuzz-decode", dependencies: ["FuzzDriver", "PhotoChecks", "PhotoValidation"], path: "Fuzz/Decode"),
        .executableTarget(name: "fuzz-heif", dependencies: ["FuzzDriver", "PhotoStructure", "ImageCodecs"], path: "Fuzz/HEIF"),
        .executableTarget(
            name: "fuzz-multipart",
            dependencies: ["FuzzDriver", "MultipartUpload", .product(name: "NIOCore", package: "swift-nio")],
            path: "Fuzz/Multipart"
        ),

        // Paths to test photos and peer tools, CSV, child processes and stand-in servers, shared by the test targets.
        .target(
            name: "TestFixtures",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The long checks against a built binary: mutated photos, load, soak with faults, hostile cost.
        .target(
            name: "ValidatorHarness",
            dependencies: [
                "TestFixtures",
                "SharedStore",
                "SignalForwarding",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The long checks (mutated photos, soak) as one command on the harness library:
        // `swift run photo-validator-harness --help`.
        .executableTarget(
            name: "photo-validator-harness",
            dependencies: ["ValidatorHarness", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        .testTarget(name: "AdmissionTests", dependencies: ["Admission"]),
        .testTarget(name: "PhotoFormatTests", dependencies: ["PhotoFormat"]),
        // PhotoStructure's pure readers, tested without linking a decoder.
        .testTarget(name: "PhotoStructureTests", dependencies: ["PhotoFormat", "PhotoStructure", "TestFixtures"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["PhotoFormat", "PhotoStructure", "ImageCodecs", "TestFixtures"]),
        .testTarget(name: "BlurMetricsTests", dependencies: ["BlurMetrics", "TestFixtures"]),
        // The blur model against PyTorch on committed fixtures (Fixtures/parity.json, models/blur/reference.py).
        .testTarget(name: "BlurModelTests", dependencies: ["BlurModel", "BlurMetrics"], exclude: ["Fixtures"]),
        .testTarget(name: "LumaAnalysisTests", dependencies: ["LumaAnalysis", "BlurMetrics", "TestFixtures"]),
        .testTarget(
            name: "MultipartUploadTests",
            dependencies: ["MultipartUpload", "TestFixtures", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // The contract, settings and judgement; photos are checked through `PhotoChecks`' decoder.
        .testTarget(name: "PhotoValidationTests", dependencies: ["BlurModel", "LumaAnalysis", "PhotoChecks", "PhotoFormat", "PhotoStructure", "PhotoValidation", "TestFixtures", "ValidatorHarness"]),
        // The checks run in this process: decode paths, previews, threads, the decode memory they reserve.
        .testTarget(
            name: "PhotoChecksTests",
            dependencies: ["Admission", "PhotoChecks", "PhotoFormat", "PhotoStructure", "PhotoValidation", "ImageCodecs", "ValidationThreads", "TestFixtures"]
        ),
        .testTarget(name: "DecodeSandboxTests", dependencies: ["CSandbox", "DecodeSandbox", "PhotoChecks", "PhotoFormat", "PhotoStructure", "PhotoValidation", "ValidationThreads", "TestFixtures"]),
        .testTarget(name: "DecodeWorkerTests", dependencies: ["DecodeWorker", "PhotoChecks", "PhotoFormat", "PhotoStructure", "PhotoValidation"]),
        .testTarget(name: "ValidationThreadsTests", dependencies: ["ValidationThreads", "TestFixtures"]),
        .testTarget(
            name: "ValidatorConfigurationTests",
            dependencies: ["ValidatorConfiguration", "PhotoValidation", "BlurMetrics", .product(name: "Configuration", package: "swift-configuration")]
        ),
        .testTarget(name: "BlurTuningTests", dependencies: ["BlurTuning", "PhotoValidation"]),
        .testTarget(
            name: "PhotoValidatorCLITests",
            dependencies: [
                "PhotoValidatorCLI",
                "PhotoChecks",
                "PhotoValidation",
                "PhotoValidatorServer",
                "ValidatorConfiguration",
                "TestFixtures",
                "BlurMetrics",
                "LumaAnalysis",
                "PhotoFormat",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "ContentCheckTests",
            dependencies: [
                "ContentCheck",
                "PhotoChecks",
                "PhotoValidation",
                "ValidatorConfiguration",
                "PhotoFormat",
                "ImageCodecs",
                "TestFixtures",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SignalForwardingTests",
            dependencies: [
                "SignalForwarding",
                "LumaAnalysis",
                "BlurMetrics",
                "TestFixtures",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SharedStoreTests",
            dependencies: [
                "SharedStore",
                "SignalForwarding",
                "TestFixtures",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PhotoValidatorServerTests",
            dependencies: [
                "PhotoValidatorServer",
                "PhotoValidatorCLI",
                "BlurMetrics",
                "LumaAnalysis",
                "ContentCheck",
                "PhotoChecks",
                "PhotoValidation",
                "ValidationThreads",
                "ValidatorConfiguration",
                "SignalForwarding",
                "SharedStore",
                "TestFixtures",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
