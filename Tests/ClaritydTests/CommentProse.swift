import Foundation

/// A file's text with its comment markers and line breaks folded into spaces, so that a
/// citation wrapped across comment lines reads as one; each offset maps back to its line.
struct CommentProse {
    let text: String
    private let lineStarts: [Int]

    init(_ source: String) {
        var folded = ""
        var starts: [Int] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            starts.append(folded.utf16.count)
            var content = line.drop { $0 == " " || $0 == "\t" }
            for marker in ["///", "//", "#"] where content.hasPrefix(marker) {
                content = content.dropFirst(marker.count).drop { $0 == " " }
                break
            }
            folded += content + " "
        }
        text = folded
        lineStarts = starts
    }

    /// The 1-based line of a UTF-16 offset into ``text``.
    func line(at offset: Int) -> Int {
        lineStarts.lastIndex { $0 <= offset }.map { $0 + 1 } ?? 1
    }

    /// One cite of a page of docs/: `docs/<page>.md`, `docs/<page>.md#<anchor>` or
    /// `docs/<page>.md, "<heading>"`.
    struct Citation {
        let offset: Int
        let path: String
        let anchor: String?
        let heading: String?
    }

    func citations() -> [Citation] {
        let pattern = try! NSRegularExpression(
            pattern: #"(?<![\w/.])(docs/[\w./-]+\.md)(?:#([\w-]+)|, "([^"]+)")?"#)
        let whole = NSRange(location: 0, length: text.utf16.count)
        let ns = text as NSString
        return pattern.matches(in: text, range: whole).map { match in
            func group(_ index: Int) -> String? {
                let range = match.range(at: index)
                return range.location == NSNotFound ? nil : ns.substring(with: range)
            }
            return Citation(
                offset: match.range.location, path: group(1)!, anchor: group(2), heading: group(3))
        }
    }
}
