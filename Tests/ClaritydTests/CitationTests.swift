import Foundation
import Testing

/// The repository explains itself: nothing in it cites the design notes the project started
/// from (they live outside the repository), and every `docs/<page>.md` the code cites exists, with
/// the heading it names. A failure names each file and line to fix.
@Suite struct CitationTests {
    /// The repository's root: this file is `Tests/ClaritydTests/CitationTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the project cites pages of docs/.
    static let citing = ["Sources", "Tests", "Examples", "Fuzz", "scripts", "config", "README.md"]
    /// Where the project's own text is.
    static let scanned = citing + ["docs"]

    /// Files outside the repository, which a person carrying the project on cannot open. Built
    /// from parts so that this file does not name them itself.
    static let outsideNames: [String] =
        ["APPS", "BEHAVIOR", "PROTOCOL", "DESIGN", "RUNTIME-NOTES", "PLATFORM-NOTES"].flatMap { name in
            [name + ".md", name + "'s"]
        } + [".." + "/shared"]

    @Test func nothingCitesAFileOutsideTheRepository() {
        var found: [String] = []
        for file in Self.textFiles(under: Self.scanned) {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                for name in Self.outsideNames where line.contains(name) {
                    found.append("\(file.path):\(number + 1): \(name)")
                }
            }
        }
        #expect(found.isEmpty, "cite a page of docs/ instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func everyCitedDocsPageAndHeadingExists() {
        var broken: [String] = []
        var headings: [String: DocsPage?] = [:]
        for file in Self.textFiles(under: Self.citing) {
            let prose = CommentProse(file.text)
            for citation in prose.citations() {
                let page: DocsPage?
                if let known = headings[citation.path] {
                    page = known
                } else {
                    page = DocsPage(at: Self.root.appendingPathComponent(citation.path))
                    headings[citation.path] = page
                }
                let place = "\(file.path):\(prose.line(at: citation.offset))"
                guard let page else {
                    broken.append("\(place): no file \(citation.path)")
                    continue
                }
                if let anchor = citation.anchor, !page.anchors.contains(anchor) {
                    broken.append("\(place): \(citation.path) has no heading #\(anchor)")
                }
                if let heading = citation.heading, !page.names(heading) {
                    broken.append("\(place): \(citation.path) has no heading \"\(heading)\"")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// Every UTF-8 file under `paths` (relative to the root), hidden ones and `.build` left out.
    static func textFiles(under paths: [String]) -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        let manager = FileManager.default
        for path in paths {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            let candidates: [String]
            if isDirectory.boolValue {
                guard let walk = manager.enumerator(atPath: url.path) else { continue }
                candidates = walk.compactMap { $0 as? String }
                    .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                    .map { path + "/" + $0 }
            } else {
                candidates = [path]
            }
            for candidate in candidates {
                let file = root.appendingPathComponent(candidate)
                var isFolder: ObjCBool = false
                guard manager.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue,
                      let data = manager.contents(atPath: file.path),
                      let text = String(data: data, encoding: .utf8) else { continue }
                files.append((candidate, text))
            }
        }
        return files
    }
}
