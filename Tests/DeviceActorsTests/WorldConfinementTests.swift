import Foundation
import Testing

/// Simulated code takes time, randomness and tasks only from its world (docs/runtime.md): the
/// Swift runtime cannot catch every escape (6.3's `Task.sleep` bypasses the enqueue hooks), so the
/// sources are lexed (comments and string text removed, interpolated code kept) and checked for
/// the calls that would escape.
@Suite struct WorldConfinementTests {
    @Test func simulatedCodeUsesOnlyItsWorldsClockRandomnessAndTasks() throws {
        // The host, the SDK and every app: all of it runs inside worlds.
        let modules = ["DeviceActors", "SimulatediOS", "Clarity", "ScrollKitty", "SpendLess", "MakeHay", "ThePhone"]
        // The explorer and its bounded search run worlds from outside, one per thread, and keep
        // wall-clock time limits; they are not simulated code.
        let outsideWorlds = ["ScenarioExplorer.swift", "BoundedSearch.swift"]
        var offenders: [String] = []
        var scanned: [String: Int] = [:]
        for module in modules {
            let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/\(module)").standardizedFileURL
            let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            for case let file as URL in files
            where file.pathExtension == "swift" && !outsideWorlds.contains(file.lastPathComponent) {
                scanned[module, default: 0] += 1
                let source = try String(contentsOf: file, encoding: .utf8)
                offenders += WorldEscape.find(in: source).map { "\(module)/\(file.lastPathComponent):\($0)" }
            }
        }
        #expect(modules.allSatisfy { scanned[$0, default: 0] > 3 }, "\(scanned)")
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test(arguments: [
        ("let url = \"tel://\"; let now = Date()", ["1: Date of the host"]),
        ("// Date()\n/* Task { } /* nested */ Date() */ let x = 1", []),
        ("let s = \"Date() and Task { }\"", []),
        ("let s = \"at \\(Date())\"", ["1: Date of the host"]),
        ("let s = #\"a \"quoted\" Date()\"#; _ = Date.now", ["1: Date of the host"]),
        ("let s = #\"\\#(UUID())\"#", ["1: UUID of the host"]),
        ("let s = \"\"\"\n  \"Date()\" \\(x)\n  \"\"\"\nlet c = ContinuousClock.now", ["4: ContinuousClock"]),
        ("var g = SystemRandomNumberGenerator()", ["1: SystemRandomNumberGenerator"]),
        ("Task.init { }; Task.detached { }; Task(priority: .low) { }; Task { @MainActor in }", []),
        ("try await Task.sleep(for: .seconds(1))", ["1: Task.sleep"]),
        ("let t: Task<Void, Never>? = nil; Task.checkCancellation()", []),
        ("let n = arc4random()", ["1: arc4random"]),
        ("items.randomElement(using: &world.random)", []),
        ("items.randomElement()", ["1: .randomElement without using:"]),
        ("Int.random(in: 0..<f(using: 3))", ["1: .random without using:"]),
        ("let d = Date(timeIntervalSinceReferenceDate: 0)", []),
        ("func sleep(_ x: Int) {}; sleep(1)", ["1: sleep()"]),
    ])
    func theScannerSeesCodeNotCommentsOrStrings(source: String, escapes: [String]) {
        #expect(WorldEscape.find(in: source) == escapes)
    }
}
