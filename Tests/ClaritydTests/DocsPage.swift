import Foundation

/// A Markdown page's headings: their text and GitHub's anchors for them.
struct DocsPage {
    let headings: [String]
    let anchors: Set<String>
    private let text: String

    init?(at url: URL) {
        guard let data = FileManager.default.contents(atPath: url.path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        self.text = text
        var inFence = false
        var headings: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { continue }
            headings.append(title.trimmingCharacters(in: .whitespaces))
        }
        self.headings = headings
        var anchors = Set<String>()
        var used: [String: Int] = [:]
        for heading in headings {
            let slug = Self.slug(heading)
            let count = used[slug, default: 0]
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
            used[slug] = count + 1
        }
        self.anchors = anchors
    }

    /// GitHub's anchor for a heading: lower-cased, spaces to hyphens, everything but letters,
    /// digits, `-` and `_` dropped.
    static func slug(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            let kept = character.isLetter || character.isNumber || character == "-" || character == "_"
            return kept ? character : nil
        })
    }

    /// Whether `name` is a heading's text (with or without its code marks), the start of one up to
    /// a space or a colon (`"Offline"` for "Offline (seed 001, …)"), or a paragraph's bold title
    /// (`**Name.**`).
    func names(_ name: String) -> Bool {
        headings.contains { heading in
            let plain = heading.replacingOccurrences(of: "`", with: "")
            return [heading, plain].contains {
                $0 == name || $0.hasPrefix(name + " ") || $0.hasPrefix(name + ":")
            }
        } || text.contains("**" + name)
    }
}
