import Foundation

/// A folder of mutated photos with its `manifest.csv` (file, class, source, expect): what
/// `photo-validator-harness mutate` writes and the hostile-input checks read.
package struct MutationSet: Sendable {
    /// Which mutation classes to write.
    package enum Classes: String, Sendable, CaseIterable {
        /// The known-corrupt classes (certain `invalid_image`).
        case known
        /// Random damage.
        case random
        /// Declared-huge headers.
        case huge
        /// All three.
        case all
    }

    /// One written file.
    package struct Entry: Sendable {
        /// The file, in `folder`.
        package let file: String
        /// The mutation class.
        package let mutationClass: String
        /// The source photo's file name.
        package let source: String
        /// What the validator must answer.
        package let expectation: PhotoMutation.Expectation
    }

    /// A source photo that is not a JPEG, PNG, WebP or HEIC, or none was usable.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }

    /// The folder the files are in.
    package let folder: URL
    /// The files, in the order written.
    package let entries: [Entry]

    /// Writes the `classes` mutations of `photos` into `folder` (created if missing), `count`
    /// random ones in all, round-robin over the photos, and the manifest; deterministic for `seed`.
    /// Photos that are not JPEG, PNG, WebP or HEIC are skipped, and named in `skipped`.
    package static func write(photos: [URL], to folder: URL, classes: Classes, count: Int, seed: UInt64,
                             skipped: (URL) -> Void = { _ in }) throws -> MutationSet {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var sources: [(url: URL, kind: ImageKind, bytes: [UInt8])] = []
        for url in photos {
            let bytes = [UInt8](try Data(contentsOf: url))
            if let kind = ImageKind(sniffing: bytes) { sources.append((url, kind, bytes)) } else { skipped(url) }
        }
        guard !sources.isEmpty else { throw Failure(description: "no usable photos (JPEG, PNG, WebP or HEIC) among \(photos.count)") }
        var mutator = PhotoMutator(seed: seed)
        var entries: [Entry] = []
        func emit(_ mutation: PhotoMutation, from source: URL) throws {
            let base = source.deletingPathExtension().lastPathComponent
            let fileExtension = ImageKind(sniffing: mutation.bytes)?.fileExtension ?? source.pathExtension
            let file = String(format: "%05d", entries.count) + "-\(base)-\(mutation.name).\(fileExtension)"
            try Data(mutation.bytes).write(to: folder.appendingPathComponent(file))
            entries.append(Entry(file: file, mutationClass: mutation.name, source: source.lastPathComponent, expectation: mutation.expectation))
        }
        for source in sources {
            if classes == .known || classes == .all {
                for mutation in mutator.known(source.bytes, kind: source.kind) { try emit(mutation, from: source.url) }
            }
            if classes == .huge || classes == .all {
                for mutation in mutator.huge(source.bytes, kind: source.kind) { try emit(mutation, from: source.url) }
            }
        }
        if classes == .random || classes == .all {
            for index in 0..<count {
                let source = sources[index % sources.count]
                if let mutation = mutator.randomMutation(source.bytes, kind: source.kind) { try emit(mutation, from: source.url) }
            }
        }
        let manifest = (["file,class,source,expect"] + entries.map { "\($0.file),\($0.mutationClass),\($0.source),\($0.expectation.rawValue)" })
            .joined(separator: "\n") + "\n"
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.csv"))
        return MutationSet(folder: folder, entries: entries)
    }
}
