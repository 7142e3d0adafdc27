import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness mutate`: writes mutated copies of photos and their manifest.
struct MutateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Write mutated copies of photos for hostile-input tests and fuzz corpora.",
        discussion: """
        Known-corrupt classes (expected invalid_image): jpeg-sof-height-x4, jpeg-cut-eoi-NN, jpeg-random-mid-scan, \
        jpeg-zeros-mid-scan, png-idat-crc, png-idat-truncated, webp-cut, heic-cut. Random classes (any answer, no crash, \
        no hang): bit flips, truncations, overwrites, duplicated JPEG segments and PNG chunks, mangled sizes. Declared-huge \
        classes (an answer within the memory budget). OUT/manifest.csv has file,class,source,expect.
        """
    )

    @Option(help: "The folder to write into.")
    var out: String

    @Option(help: "Random mutations in all.")
    var count = 100

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "known, random, huge or all.")
    var classes: MutationSet.Classes = .all

    @Argument(help: "JPEG, PNG, WebP or HEIC photos.")
    var photos: [String]

    func run() throws {
        var standardError = FileHandle.standardError
        let set = try MutationSet.write(
            photos: photos.map { URL(fileURLWithPath: $0) }, to: URL(fileURLWithPath: out), classes: classes, count: count, seed: seed,
            skipped: { print("mutate: \($0.path): not a JPEG, PNG, WebP or HEIC; skipped", to: &standardError) }
        )
        print("mutate: wrote \(set.entries.count) files to \(out)", to: &standardError)
    }
}

extension MutationSet.Classes: ExpressibleByArgument {}

extension FileHandle: @retroactive TextOutputStream {
    /// Writes `string` as UTF-8.
    public func write(_ string: String) { write(Data(string.utf8)) }
}
