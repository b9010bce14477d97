import ControlProtocol
import Foundation

/// `explore --junit FILE`: each scenario explored as a JUnit test case, for a CI's test report —
/// a failed case carries the failure's message, its story and the command that replays it, and
/// its properties the schedule's index and token (`scripts/merge-junit.py` merges the files of
/// a sharded matrix and names the lowest failing index); a scenario that could not be explored
/// (not JSON, or refused by the daemon) is an errored case, and the others are kept.
struct JUnitReport {
    struct Case {
        let name: String
        let seconds: Double
        let outcome: Outcome
        let properties: [(String, String)]
        /// `<system-out>` lines: `report: DIR/<name>.html` when `explore --html` wrote one.
        var output: [String] = []
    }

    /// How a case ended: JUnit's `<failure>` for a scenario that did not pass, `<error>` for one
    /// that could not be explored.
    enum Outcome {
        case passed
        case failed(message: String, details: [String])
        case errored(message: String)
    }

    let path: String
    private(set) var cases: [Case] = []

    init(path: String) {
        self.path = path
    }

    /// Adds the exploration of `file` that gave `report` (`scenario.explore`'s answer);
    /// `htmlReport`, the HTML report written of its failure, is linked from the case's
    /// `<system-out>` (`report: reports/<scenario name>.html`).
    mutating func add(file: String, report: JSONValue, replayLines: [String], htmlReport: String? = nil) {
        let failure = report["failures"]?.arrayValue?.first
        var properties: [(String, String)] = [
            ("schedules", PlainText.cell(report["schedules"] ?? .null)), ("failed", PlainText.cell(report["failed"] ?? .null)),
        ]
        if let failure {
            properties.append(("scheduleIndex", PlainText.cell(failure["scheduleIndex"] ?? .null)))
            properties.append(("schedule", failure["schedule"]?.stringValue ?? ""))
        }
        let outcome: Outcome
        switch ExplorationVerdict(report) {
        case .passed: outcome = .passed
        case .failed where failure != nil:
            let story = failure?["story"]?.arrayValue?.compactMap(\.stringValue) ?? []
            outcome = .failed(message: failure?["message"]?.stringValue ?? "a schedule failed", details: story + ["replay:"] + replayLines)
        case let verdict: outcome = .failed(message: verdict.reason ?? "", details: [])
        }
        cases.append(
            Case(
                name: file, seconds: report["seconds"]?.doubleValue ?? 0, outcome: outcome, properties: properties,
                output: htmlReport.map { ["report: \($0)"] } ?? []))
    }

    /// Adds `file`, which could not be explored, as an errored case saying why.
    mutating func add(file: String, error message: String) {
        cases.append(Case(name: file, seconds: 0, outcome: .errored(message: message), properties: []))
    }

    /// The XML, one `<testsuite>` holding every case.
    var xml: String {
        let failures = cases.filter { if case .failed = $0.outcome { true } else { false } }.count
        let errors = cases.filter { if case .errored = $0.outcome { true } else { false } }.count
        let seconds = cases.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites>",
            #"  <testsuite name="clarityd scenarios" tests="\#(cases.count)" failures="\#(failures)" errors="\#(errors)" time="\#(Self.time(seconds))">"#,
        ]
        for testCase in cases {
            lines.append(
                #"    <testcase classname="scenarios" name="\#(Self.escaped(testCase.name))" time="\#(Self.time(testCase.seconds))">"#)
            if !testCase.properties.isEmpty {
                lines.append("      <properties>")
                for (name, value) in testCase.properties {
                    lines.append(#"        <property name="\#(Self.escaped(name))" value="\#(Self.escaped(value))"/>"#)
                }
                lines.append("      </properties>")
            }
            switch testCase.outcome {
            case .passed: break
            case .failed(let message, let details):
                lines.append(#"      <failure message="\#(Self.escaped(message))">"#)
                lines += details.map { Self.escaped($0, inAttribute: false) }
                lines.append("      </failure>")
            case .errored(let message):
                lines.append(#"      <error message="\#(Self.escaped(message))"/>"#)
            }
            if !testCase.output.isEmpty {
                lines.append("      <system-out>" + testCase.output.map { Self.escaped($0, inAttribute: false) }.joined(separator: "\n") + "</system-out>")
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

    /// `text` as XML 1.0 character data: the five markup characters as entities, and what XML
    /// 1.0 cannot hold at all — control characters other than tab, line feed and carriage return,
    /// U+FFFE and U+FFFF; not even as `&#1;` — written visibly as `\u0001`, so that a scenario
    /// file or a store key holding one still gives a well-formed report that shows it. In an
    /// attribute, tab, line feed and carriage return are character references, which a parser
    /// keeps (it turns them into spaces when written as they are).
    static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += inAttribute ? "&#\(scalar.value);" : String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
