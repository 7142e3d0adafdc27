import FuzzDriver
import PhotoChecks
import PhotoValidation

/// The validator every input goes through: the sniff, the one loader, libjpeg, the blur kernel.
let validator: PhotoValidator = {
    var settings = ValidationSettings()
    // A smaller pixel limit keeps each execution quick and makes the limits reachable.
    settings.pixelLimit = 40_000_000
    return try! PhotoValidator(settings: settings)
}()

/// Validates the bytes as a room photo; any crash or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let output = validator.validate(UnsafeRawBufferPointer(start: data, count: size), as: .room)
    // The contract: invalid_image stands alone, and passed means no failures.
    precondition(!output.failures.contains(.invalidImage) || output.failures == [.invalidImage], "invalid_image with other failures")
    precondition(output.passed == output.failures.isEmpty, "passed disagrees with failures")
    return 0
}

/// Under libFuzzer (`scripts/fuzz`) fuzzes; otherwise replays the files named.
@main
enum FuzzDecodeMain {
    static func main() {
        let status = pv_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzDecode(data, size) }
        precondition(status == 0, "the fuzz driver failed with status \(status)")
    }
}
