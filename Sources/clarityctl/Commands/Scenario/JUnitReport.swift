import ControlProtocol
import Foundation

/// `explore --junit FILE`: each scenario explored as a JUnit test case, for a CI's test report —
/// a failed case carries the failure's message, its story and the command that replays it, and
/// its properties the schedule's index and token (`scripts/merge-junit.py` merges the files of
/// a sharded matrix and names the lowest failing index).
struct JUnitReport {
    struct Case {
        let name: String
        let seconds: Double
        /// Nil when the scenario passed.
        let failure: (message: String, details: [String])?
        let properties: [(String, String)]
    }

    let path: String
    private(set) var cases: [Case] = []

    init(path: String) {
        self.path = path
    }

    /// Adds the exploration of `file` that gave `report` (`scenario.explore`'s answer).
    mutating func add(file: String, report: JSONValue, replayLines: [String]) {
        let failure = report["failures"]?.arrayValue?.first
        var properties: [(String, String)] = [
            ("schedules", PlainText.cell(report["schedules"] ?? .null)), ("failed", PlainText.cell(report["failed"] ?? .null)),
        ]
        if let failure {
            properties.append(("scheduleIndex", PlainText.cell(failure["scheduleIndex"] ?? .null)))
            properties.append(("schedule", failure["schedule"]?.stringValue ?? ""))
        }
        let passed = report["passed"]?.boolValue ?? ((report["failed"]?.intValue ?? 0) == 0)
        var outcome: (String, [String])?
        if !passed {
            if let failure {
                let story = failure["story"]?.arrayValue?.compactMap(\.stringValue) ?? []
                outcome = (failure["message"]?.stringValue ?? "a schedule failed", story + ["replay:"] + replayLines)
            } else {
                outcome = ("expected a failure (expectFailure), but no schedule failed: the race it pins is no longer found", [])
            }
        }
        cases.append(
            Case(name: file, seconds: report["seconds"]?.doubleValue ?? 0, failure: outcome, properties: properties))
    }

    /// The XML, one `<testsuite>` holding every case.
    var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        let seconds = cases.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites>",
            #"  <testsuite name="clarityd scenarios" tests="\#(cases.count)" failures="\#(failures)" errors="0" time="\#(Self.time(seconds))">"#,
        ]
        for testCase in cases {
            lines.append(
                #"    <testcase classname="scenarios" name="\#(Self.escaped(testCase.name))" time="\#(Self.time(testCase.seconds))">"#)
            lines.append("      <properties>")
            for (name, value) in testCase.properties {
                lines.append(#"        <property name="\#(Self.escaped(name))" value="\#(Self.escaped(value))"/>"#)
            }
            lines.append("      </properties>")
            if let failure = testCase.failure {
                lines.append(#"      <failure message="\#(Self.escaped(failure.message))">"#)
                lines += failure.details.map(Self.escaped)
                lines.append("      </failure>")
            }
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    func write() throws {
        do {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OutputFileError(path: path, reason: error.localizedDescription)
        }
    }

    private static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
