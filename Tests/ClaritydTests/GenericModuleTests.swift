import BuiltInApps
import Foundation
import SimulatediOS
import Testing

/// Issue 40: the generic layers name no app. Adding an app changes nothing in them: an app is
/// given to them as its registration (``AppRegistration``), and the list of the built-in ones
/// lives in `BuiltInApps` only. The apps are found as ``AppBoundaryTests`` finds them, from
/// Package.swift; the words they may not say are each app target's name (and its spelling in
/// words, `Make Hay`), the targets named after one (its server), the wire names the built-in
/// registrations carry, and the types the app targets declare under their name. Matched as whole words, in code
/// and comments alike, so the project's own `clarityd` or `ClarityDaemon` never match `clarity`.
@Suite struct GenericModuleTests {
    /// The layers that host any app (Package.swift; docs/architecture.md).
    static let genericModules = ["SimulatediOS", "DeviceActors", "ClarityDaemon", "ControlProtocol", "clarityctl"]

    /// Its hits left are all The Phone's backend, which issue 40 item 1 turns into a server an app
    /// registers: Sources/DeviceActors/Backends/, Sources/ClarityDaemon/Backends/,
    /// `AppRegistration.usesBackend`, `DeviceConfig.backend` and `app.backend`,
    /// `SimulatedDevice.connection` and the journal's launch exchanges (`DeviceConnection`), the
    /// backends' store (DeviceStateStore), `config.app.backend` in DeviceService, the rehearsal's
    /// backend caveat (ScenarioRehearsal), clarityctl's `backend list` and `--backend`.
    @Test
    func genericModulesNameNoApp() throws {
        let hits = try Self.hits()
        #expect(hits.isEmpty, "a generic module names an app:\n\(hits.joined(separator: "\n"))")
    }

    /// The rule itself: the words are found, whole, and the project's own names are not.
    @Test func wordsAreMatchedWhole() throws {
        let words = try Self.forbiddenWords()
        for word in ["clarity", "thephone", "Clarity", "ThePhone", "ThePhoneBackend", "ClarityConfig", "Make Hay"] {
            #expect(words.contains(word), "\(word) is not among \(words.sorted())")
        }
        let line = "clarityd runs clarityctl; ClarityDaemon is not clarity's: see com.clarity.focus and Make Hay"
        #expect(Self.words(in: line, among: words) == ["clarity", "clarity", "Make Hay"])
    }

    /// Every generic module is a target of Package.swift.
    @Test func genericModulesAreTargets() throws {
        let targets = try Self.targets()
        #expect(Self.genericModules.filter { targets.dependencies[$0] == nil }.isEmpty)
    }

    /// `path:line:word` for every forbidden word in a generic module's Swift files.
    static func hits() throws -> [String] {
        let words = try forbiddenWords()
        return genericModules.flatMap { module in
            AppBoundaryTests.swiftFiles(under: "Sources/\(module)").flatMap { file in
                file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { number, line in
                    Self.words(in: String(line), among: words).map { "\(file.path):\(number + 1):\($0)" }
                }
            }
        }
    }

    static func targets() throws -> PackageTargets {
        try PackageTargets(
            manifest: String(contentsOf: AppBoundaryTests.root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// What no generic module may say.
    static func forbiddenWords() throws -> Set<String> {
        let targets = try targets()
        let apps = try AppBoundaryTests.builtInApps(targets)
        // A server is what BuiltInApps registers beside the apps, or a target named after an app
        // (`ThePhoneBackend`), neither a test nor a generic layer (`ClarityDaemon` is the project's).
        let layers = Set(genericModules + ["ExtensionSandbox"])
        let servers = targets.dependencies.keys.filter { target in
            !apps.contains(target) && !layers.contains(target) && !target.hasSuffix("Tests")
                && (apps.contains { target.hasPrefix($0) } || targets.dependencies["BuiltInApps"]?.contains(target) == true)
        }
        // An app's own types carry its name (`ClarityConfig`); `State` or `Event` are every app's.
        let types = apps.flatMap { app in
            AppBoundaryTests.swiftFiles(under: "Sources/\(app)").flatMap { declaredTypes(in: CodeText($0.text).lines) }
                .filter { $0.hasPrefix(app) }
        }
        let spelled = apps.map { $0.replacing(/([a-z])([A-Z])/) { "\($0.output.1) \($0.output.2)" } }
        return Set(apps + servers + spelled + types + AppRegistration.builtIn.map(\.name))
    }

    /// The names of the types `lines` declare (`struct ClarityConfig`).
    static func declaredTypes(in lines: [String]) -> [String] {
        lines.flatMap { line in
            line.matches(of: /\b(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z][A-Za-z0-9_]*)/).map { String($0.output.1) }
        }
    }

    /// The words of `words` in `line`, whole (no letter, digit or `_` on either side), in order.
    static func words(in line: String, among words: Set<String>) -> [String] {
        words.flatMap { word in
            let pattern = "(?<![A-Za-z0-9_])" + NSRegularExpression.escapedPattern(for: word) + "(?![A-Za-z0-9_])"
            let expression = try? NSRegularExpression(pattern: pattern)
            return (expression?.matches(in: line, range: NSRange(line.startIndex..., in: line)) ?? []).map { ($0.range.location, word) }
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
