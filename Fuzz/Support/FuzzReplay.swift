import Foundation

/// Runs a fuzz target over files, as libFuzzer would over a corpus, for builds without libFuzzer.
public enum FuzzReplay {
    /// Calls `body` with the bytes of every file in `arguments` (folders recursively).
    public static func run(arguments: [String], _ body: ([UInt8]) -> Void) {
        var count = 0
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else { continue }
            let files = isFolder.boolValue
                ? (FileManager.default.enumerator(atPath: argument)?.compactMap { $0 as? String }.map { argument + "/" + $0 } ?? [])
                : [argument]
            for file in files.sorted() {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                body(Array(data))
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}
