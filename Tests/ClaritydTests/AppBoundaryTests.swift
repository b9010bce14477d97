import Foundation
import Testing

/// Apps see only the SDK, never the kernel (docs/sdk.md, "What an app can reach"): an app target
/// depends on `SimulatediOS` alone, and its code neither imports `ExtensionSandbox` nor names the
/// runtime that steps it (`World`, its clock, its scheduler). The apps are found, not listed: the
/// targets `BuiltInApps` depends on in Package.swift that declare an `AppRegistration`, and the
/// example packages' targets that do. A failure names the target, or the file and line.
@Suite struct AppBoundaryTests {
    /// The repository's root: this file is `Tests/ClaritydTests/AppBoundaryTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What app code may not say, and why, matched in code with comments and strings removed.
    static let forbidden: [(pattern: String, reason: String)] = [
        (#"\bExtensionSandbox\b"#, "the kernel's module"),
        (#"\bWorld\b"#, "the kernel's runtime"),
        (#"@_spi\("#, "the host's API"),
        (#"\.advance\(to:"#, "moves the device's clock"),
        (#"\.cancelAll\("#, "cancels every timer on the device"),
        (#"\.scheduler\b"#, "the kernel's scheduler"),
    ]

    /// What registers an app (`public static let clarity = AppRegistration(...)`, or a function
    /// making one for the server it is given: `func thePhone(talkingTo:) -> AppRegistration`) or
    /// an app's server (`ServerRegistration(PhoneBackend.self, …)`): the server's target is held
    /// to the same rules as the app's.
    static let registration = #"(= AppRegistration\(|static func [^\n]*-> AppRegistration \{|= ServerRegistration\()"#

    @Test func appTargetsDependOnTheSDKAlone() throws {
        let targets = try PackageTargets(manifest: String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8))
        let apps = try Self.builtInApps(targets)
        #expect(apps.count >= 6, "found only \(apps) among BuiltInApps' dependencies (five apps and a server)")
        let reaching = apps.filter { targets.dependencies[$0] != ["SimulatediOS"] }
            .map { "\($0) depends on \(targets.dependencies[$0] ?? [])" }
        #expect(reaching.isEmpty, "an app target depends on SimulatediOS only:\n\(reaching.joined(separator: "\n"))")
    }

    @Test func appCodeNeverNamesTheKernel() throws {
        let targets = try PackageTargets(manifest: String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8))
        let folders = try Self.builtInApps(targets).map { "Sources/\($0)" } + Self.exampleApps()
        #expect(folders.count >= 8, "found only \(folders)")
        var found: [String] = []
        for folder in folders {
            for (path, text) in Self.swiftFiles(under: folder) {
                for (number, line) in CodeText(text).lines.enumerated() {
                    for rule in Self.forbidden where line.range(of: rule.pattern, options: .regularExpression) != nil {
                        found.append("\(path):\(number + 1): \(rule.reason): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(found.isEmpty, "apps reach the kernel only through SimulatediOS:\n\(found.joined(separator: "\n"))")
    }

    @Test func theScannerSeesCodeNotCommentsOrStrings() {
        let text = """
            import ExtensionSandbox // World
            /// The world steps it. /* World */
            let s = "World \\(world.advance(to: t))"; let b = "\\\\"; let World = 1
            """
        #expect(CodeText(text).lines == [
            "import ExtensionSandbox ", "", #"let s = "\(world.advance(to: t))"; let b = ""; let World = 1"#,
        ])
    }

    /// The targets `BuiltInApps` depends on whose sources register an app.
    static func builtInApps(_ targets: PackageTargets) throws -> [String] {
        let candidates = try #require(targets.dependencies["BuiltInApps"], "no BuiltInApps target in Package.swift")
        return candidates.filter { name in
            swiftFiles(under: "Sources/\(name)").contains { $0.text.range(of: registration, options: .regularExpression) != nil }
        }
    }

    /// The example packages' source folders that register an app (`Examples/DailyLimit/Sources/DailyLimit`).
    static func exampleApps() -> [String] {
        let manager = FileManager.default
        let examples = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path)) ?? []
        return examples.sorted().flatMap { example in
            let sources = "Examples/\(example)/Sources"
            let targets = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(sources).path)) ?? []
            return targets.sorted().map { "\(sources)/\($0)" }
                .filter { folder in
                    swiftFiles(under: folder).contains { $0.text.range(of: registration, options: .regularExpression) != nil }
                }
        }
    }

    /// Every `.swift` file under `folder` (relative to the root), with its text.
    static func swiftFiles(under folder: String) -> [(path: String, text: String)] {
        let url = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(atPath: url.path) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            guard let text = try? String(contentsOf: url.appendingPathComponent(file), encoding: .utf8) else { return nil }
            return ("\(folder)/\(file)", text)
        }
    }
}

/// The targets of a package manifest and the names of their dependencies, read from its text:
/// each `.target(`, `.executableTarget(` or `.testTarget(` call's `name:` and the quoted names
/// in its `dependencies: [...]`.
struct PackageTargets {
    let dependencies: [String: [String]]

    init(manifest: String) throws {
        var dependencies: [String: [String]] = [:]
        let call = try Regex(#"\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#)
        for match in manifest.matches(of: call) {
            guard let name = match.output[2].substring.map(String.init) else { continue }
            let rest = manifest[match.range.upperBound...]
            let body = rest.prefix(upTo: Self.closingParenthesis(in: rest))
            var names: [String] = []
            if let list = body.range(of: "dependencies:") {
                let array = body[list.upperBound...].prefix { $0 != "]" }
                names = array.matches(of: try Regex(#""([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
            }
            dependencies[name] = names
        }
        self.dependencies = dependencies
    }

    /// Where the call whose arguments `text` starts inside ends.
    private static func closingParenthesis(in text: Substring) -> Substring.Index {
        var depth = 1
        for index in text.indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" { depth -= 1 }
            if depth == 0 { return index }
        }
        return text.endIndex
    }
}

/// Swift source with comments and the literal text of strings removed, line by line (line numbers
/// kept; the code interpolated in a string stays), so that prose never matches a rule.
struct CodeText {
    let lines: [String]

    init(_ source: String) {
        var code = ""
        var characters = source[...]
        var inString = false
        var interpolationDepth = 0
        var blockDepth = 0
        while let character = characters.first {
            let pair = String(characters.prefix(2))
            if blockDepth > 0 {
                if pair == "*/" { blockDepth -= 1; characters = characters.dropFirst(2); continue }
                if pair == "/*" { blockDepth += 1; characters = characters.dropFirst(2); continue }
                if character == "\n" { code.append("\n") }
            } else if inString && interpolationDepth == 0 {
                if pair == "\\(" { interpolationDepth = 1; code.append("\\("); characters = characters.dropFirst(2); continue }
                if pair == "\\\"" || pair == "\\\\" { characters = characters.dropFirst(2); continue }
                if character == "\"" { inString = false; code.append("\"") }
                if character == "\n" { code.append("\n") }
            } else if pair == "//" {
                characters = characters.drop { $0 != "\n" }
                continue
            } else if pair == "/*" {
                blockDepth = 1
                characters = characters.dropFirst(2)
                continue
            } else {
                if character == "\"" && interpolationDepth == 0 { inString = true }
                if inString && character == "(" { interpolationDepth += 1 }
                if inString && character == ")" { interpolationDepth -= 1 }
                code.append(character)
            }
            characters = characters.dropFirst()
        }
        lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
