import ArgumentParser

/// One of N deterministic parts of a file list, chosen by a stable hash of each relative path, so
/// several machines or an array job can share one folder tree and together cover every file once.
struct Shard: ExpressibleByArgument, Sendable, Equatable {
    /// This part, 1 to `count`.
    let index: Int
    /// How many parts there are.
    let count: Int

    /// The whole list as one part.
    static let all = Shard(index: 1, count: 1)

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 <= K <= N.
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.init(index: index, count: count)
    }

    /// `K/N`.
    var defaultValueDescription: String { "\(index)/\(count)" }

    /// True when the file at `relativePath` belongs to this part.
    func contains(relativePath: String) -> Bool {
        count == 1 || Int(Self.fnv1a(relativePath) % UInt64(count)) == index - 1
    }

    /// True when the file at `relativePath` belongs to this part, split by file or, with
    /// `wholeFolders`, by its folder, so that every photo of a folder is in the same part: the
    /// duplicate check compares a folder's photos (`--duplicates folder`), and a part that held
    /// only some of them would miss duplicates that one run over the whole tree finds.
    func contains(relativePath: String, wholeFolders: Bool) -> Bool {
        guard wholeFolders else { return contains(relativePath: relativePath) }
        let folder = relativePath.lastIndex(of: "/").map { String(relativePath[..<$0]) } ?? ""
        return contains(relativePath: folder)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: stable across runs, machines and Swift versions
    /// (unlike `Hasher`, which is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
