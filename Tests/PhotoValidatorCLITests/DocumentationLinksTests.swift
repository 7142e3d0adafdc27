import Foundation
import TestFixtures
import Testing

@Suite("README.md and docs/")
struct DocumentationLinksTests {
    /// README.md and every Markdown file under docs/.
    static var documents: [URL] {
        let root = Fixtures.repositoryRoot
        let docs = root.appendingPathComponent("docs")
        let found = (FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + found.sorted { $0.path < $1.path }
    }

    /// The text outside fenced code blocks and inline code, where a link is a link.
    static func prose(_ text: String) -> String {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if line.hasPrefix("```") { fenced.toggle(); return nil }
            return fenced ? nil : String(line).replacing(#/`[^`]*`/#, with: "")
        }.joined(separator: "\n")
    }

    /// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        heading.lowercased().unicodeScalars.compactMap { scalar -> String? in
            if scalar == " " { return "-" }
            if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" { return String(scalar) }
            return nil
        }.joined()
    }

    /// The anchors of `text`'s headings (a repeated heading gets `-1`, `-2`, ... as on GitHub).
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var fenced = false
        var result = Set<String>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, let match = line.firstMatch(of: #/^#{1,6} +(.+?) *$/#) else { continue }
            let base = anchor(String(match.output.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            result.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return result
    }

    @Test("every relative link and anchor resolves")
    func linksResolve() throws {
        var broken: [String] = []
        var checked = 0
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for match in Self.prose(text).matches(of: #/\]\(([^)\s]+)(?: "[^"]*")?\)/#) {
                let link = String(match.output.1)
                if link.contains("://") || link.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? document : document.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let name = document.path.replacingOccurrences(of: Fixtures.repositoryRoot.path + "/", with: "")
                guard FileManager.default.fileExists(atPath: target.path) else {
                    broken.append("\(name): \(link) (no such file)")
                    continue
                }
                if parts.count == 2 {
                    let targetText = try String(contentsOf: target, encoding: .utf8)
                    if !Self.anchors(targetText).contains(parts[1]) {
                        broken.append("\(name): \(link) (no such heading)")
                    }
                }
            }
        }
        #expect(checked > 10, "the README and docs link to each other")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test("the anchor rules match GitHub's")
    func anchorRules() {
        #expect(Self.anchor("The daemon: `photo-validator serve`") == "the-daemon-photo-validator-serve")
        #expect(Self.anchors("# A\n## A\n```\n# B\n```\n") == ["a", "a-1"])
    }
}
