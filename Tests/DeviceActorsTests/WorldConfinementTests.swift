import Foundation
import Testing

/// Simulated code takes time and randomness only from its world (docs/runtime.md): the Swift
/// runtime cannot catch every escape (6.3's `Task.sleep` bypasses the enqueue hooks), so the
/// sources are checked for the calls that would escape.
@Suite struct WorldConfinementTests {
    @Test func simulatedCodeUsesOnlyItsWorldsClockRandomnessAndTasks() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/DeviceActors").standardizedFileURL
        let banned = [
            "Task.sleep", "Task.detached", "Task {", "Date()", "Date.now", "asyncAfter", "DispatchQueue", "UUID()",
            ".random(in:", "Thread.sleep", "usleep(",
        ]
        // The explorer runs worlds from outside, one per thread; it is not simulated code.
        let outsideWorlds = ["ScenarioExplorer.swift"]
        var offenders: [String] = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        for case let file as URL in files
        where file.pathExtension == "swift" && !outsideWorlds.contains(file.lastPathComponent) {
            scanned += 1
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for call in banned where code.contains(call) && !code.contains("add\(call)") {
                    offenders.append("\(file.lastPathComponent):\(number + 1): \(call)")
                }
            }
        }
        #expect(scanned > 50)
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
