import JSONValues
import ScreenRendering

/// The parts of a `scenario.run` / `scenario.replay` answer with `report: true` that a report
/// page draws (docs/protocol.md, "Scenarios"): decoded strictly where the page relies on a
/// member, leniently (unknown members ignored) so a newer daemon's additions do not break it.
struct RunAnswer: Decodable {
    struct Failure: Decodable {
        let message: String
        let step: String?
        let invariant: String?
    }

    /// One operation of the causal chain: `role` is `read`, `interleaved write`, `losing write`,
    /// `last write` or `fault`.
    struct Link: Decodable {
        let seq: Int
        let actor: String
        let op: String
        let key: String
        let value: String?
        let role: String

        /// The role as a CSS class: `losing-write`, `last-write`.
        var roleClass: String { role.replacingOccurrences(of: " ", with: "-") }
    }

    struct Device: Decodable {
        struct App: Decodable {
            let name: String
            let bundleIdentifier: String
        }

        let name: String
        let platform: String
        let apps: [App]
        let timeZone: String
    }

    struct Stores: Decodable {
        let appGroup: [String: [String: String]]
        let shields: [String: JSONValue]
    }

    struct Changes: Decodable {
        let appGroup: [String: [String]]
        let shields: [String]
    }

    struct Frame: Decodable {
        let index: Int
        let path: String
        let label: String
        let t: Double
        let startSeq: Int
        let endSeq: Int
        let screen: PhoneScreen
        let appGroup: [String: [String: String]]
        let shields: [String: JSONValue]
        let before: Stores
        let changed: Changes
        let failing: Bool
    }

    struct Timeline: Decodable {
        struct Span: Decodable {
            let kind: String
            let label: String
            let startSeq: Int
            let endSeq: Int
            let path: String?
        }

        struct Mark: Decodable {
            let kind: String
            let seq: Int
            let label: String
        }

        struct Lane: Decodable {
            let name: String
            let spans: [Span]
            let marks: [Mark]
        }

        let lanes: [Lane]
        let events: Int
        let firstSeq: Int
        let lastSeq: Int
        let omitted: Int
    }

    struct Report: Decodable {
        let device: Device
        let steps: [Frame]
        let timeline: Timeline
    }

    let passed: Bool
    let failures: [Failure]
    let token: String?
    let story: [String]?
    let causalChain: [Link]?
    let trace: [JSONValue]
    let report: Report
}
