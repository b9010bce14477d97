import Foundation
import Testing

/// Every `@unchecked Sendable` in Sources/ says why in one line, `// unchecked: <why>`, on the
/// line before its declaration or on the same line (docs/runtime.md, "Confinement").
@Suite struct UncheckedSendableReasonTests {
    @Test func everyUncheckedSendableSaysWhy() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var declarations = 0
        var unexplained: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where Self.declares(line) {
                declarations += 1
                let before = index > 0 ? lines[index - 1] : ""
                guard !line.contains("// unchecked: "), !before.trimmingCharacters(in: .whitespaces).hasPrefix("// unchecked: ")
                else { continue }
                unexplained.append("\(file.path.dropFirst(root.path.count + 1)):\(index + 1)")
            }
        }
        #expect(declarations > 0, "no @unchecked Sendable found under \(sources.path): is the root right?")
        #expect(unexplained.isEmpty, "@unchecked Sendable without a `// unchecked: <why>` line: \(unexplained.joined(separator: ", "))")
    }

    /// Whether `line` declares a type `@unchecked Sendable` (not a comment mentioning it).
    private static func declares(_ line: String) -> Bool {
        let code = line.components(separatedBy: "//")[0]
        return code.contains("@unchecked Sendable")
    }
}
