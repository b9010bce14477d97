import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A known reproducer, kept as a fixed case that runs before the random requests: it sends the
/// exact requests and checks that the daemon survives and answers them, none with -32603.
struct RegressionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable (RegressionProbe) -> Void

    var testDescription: String { name }

    static let all: [RegressionCase] = [
        RegressionCase(name: "1 trace.get since Int.min") { probe in
            probe.send(#"{"jsonrpc":"2.0","id":1,"method":"trace.get","params":{"since":-9223372036854775808}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":2,"method":"trace.get","params":{"since":9223372036854775807,"limit":9223372036854775807}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":3,"method":"trace.get","params":{"since":0,"limit":-9223372036854775808}}"#)
        },
        RegressionCase(name: "2 warningTime second 2^62 on a repeating 18-22 schedule") { probe in
            probe.send(
                #"{"jsonrpc":"2.0","id":1,"method":"activity.start","params":{"name":"evening","schedule":{"intervalStart":{"hour":18},"intervalEnd":{"hour":22},"repeats":true,"warningTime":{"second":4611686018427387904}}}}"#
            )
            probe.send(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"seconds":86400}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":3,"method":"activity.list"}"#)
        },
        RegressionCase(name: "3a thresholdBatchIntervalSeconds 2^62 with batchedThresholds") { probe in
            probe.send(
                #"{"jsonrpc":"2.0","id":1,"method":"device.config","params":{"config":{"thresholdBatchIntervalSeconds":4611686018427387904,"quirks":{"batchedThresholds":true}}}}"#
            )
            probe.instagramHour()
        },
        RegressionCase(name: "3b defaultsPropagationDelaySeconds 2^62 with lateDefaultsPropagation") { probe in
            probe.send(
                #"{"jsonrpc":"2.0","id":1,"method":"device.config","params":{"config":{"defaultsPropagationDelaySeconds":4611686018427387904,"quirks":{"lateDefaultsPropagation":true}}}}"#
            )
            probe.instagramHour()
        },
        RegressionCase(name: "4a frictionLevel 1e19 across a restart") { probe in
            probe.frictionLevelAcrossRestart("1e19")
        },
        RegressionCase(name: "4b frictionLevel 9223372036854775808 across a restart") { probe in
            probe.frictionLevelAcrossRestart("9223372036854775808")
        },
        RegressionCase(name: "5 start at .001 s, a repeating 10-11 schedule, advance 2 h") { probe in
            probe.send(#"{"jsonrpc":"2.0","id":1,"method":"device.create","params":{"device":"v","start":"2026-01-05T09:00:00.001Z"}}"#)
            probe.send(
                #"{"jsonrpc":"2.0","id":2,"method":"activity.start","params":{"device":"v","name":"hour","schedule":{"intervalStart":{"hour":10},"intervalEnd":{"hour":11},"repeats":true}}}"#
            )
            probe.send(#"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"device":"v","seconds":7200}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":4,"method":"clock.now","params":{"device":"v"}}"#)
        },
        RegressionCase(name: "6 a store.set value nested 600 deep, then a durable write") { probe in
            probe.deepValueThenDurableWrite(depth: 600)
        },
        RegressionCase(name: "6b a store.set value nested 509 deep (the deepest a request can carry), then a durable write") { probe in
            probe.deepValueThenDurableWrite(depth: 509)
        },
        RegressionCase(name: "7 device names ending in a line break are refused") { probe in
            // Written as UTF-8 (a newline as \n), then as \u escapes the daemon must decode.
            var lines: [String] = []
            for name in ["v\n", "v\r", "v\u{2028}", "v\u{85}", "v\u{2029}", String(repeating: "a", count: 64) + "\n"] {
                var line = Array(#"{"jsonrpc":"2.0","id":1,"method":"device.create","params":{"device":"#.utf8)
                FuzzValue.writeString(name, to: &line)
                lines.append(String(decoding: line + Array("}}".utf8), as: UTF8.self))
            }
            for escaped in [#""w\u2028""#, #""w\u0085""#, #""w\u2029""#, #""w\u000a""#, #""w\u000d""#] {
                lines.append(#"{"jsonrpc":"2.0","id":2,"method":"device.create","params":{"device":\#(escaped)}}"#)
            }
            var accepted: [String] = []
            for line in lines {
                if let answer = probe.send(line), answer["error"]?["code"] != .int(-32602) {
                    accepted.append("\(excerpt(line)) <-- \(excerpt(wireText(answer), limit: 160))")
                }
            }
            if !accepted.isEmpty {
                probe.problem("\(accepted.count) of \(lines.count) names were not refused with -32602:\n    " + accepted.joined(separator: "\n    "))
            }
            if let list = probe.send(#"{"jsonrpc":"2.0","id":3,"method":"device.list"}"#),
                let devices = list["result"]?.arrayValue, devices.count != 1
            {
                probe.problem("device.list shows \(devices.count) devices, not only default: \(excerpt(wireText(list)))")
            }
        },
        // Found by scripts/fuzz.sh (fuzz-scenario): the steps' total was converted to Int for the
        // "ten years" message before each step's own bound was checked.
        RegressionCase(name: "8 a scenario advancing 1e19 seconds") { probe in
            let steps = #"{"steps":[{"advance":1e19}]}"#
            probe.send(#"{"jsonrpc":"2.0","id":1,"method":"scenario.run","params":{"scenario":\#(steps)}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":2,"method":"scenario.explore","params":{"scenario":\#(steps),"schedules":1}}"#)
            probe.send(#"{"jsonrpc":"2.0","id":3,"method":"scenario.run","params":{"scenario":{"steps":[{"advance":1e308},{"advance":1e308}]}}}"#)
        },
    ]
}

/// Runs a regression case's requests against a daemon of its own, one at a time on one
/// connection, and collects what went wrong. After a hang or a crash it sends nothing more.
final class RegressionProbe {
    /// A request unanswered this long is a hang (the requests here need milliseconds).
    static let hangSeconds: Double = 20

    private let daemon: DaemonProcess
    private var connection: RawConnection?
    private(set) var problems: [String] = []
    private var broken = false

    init() throws {
        daemon = try DaemonProcess()
    }

    func problem(_ text: String) {
        problems.append(text)
    }

    /// Sends `line` and returns the answer; records a hang, a lost connection, -32603 or an answer
    /// that is not JSON.
    @discardableResult
    func send(_ line: String) -> JSONValue? {
        guard !broken else { return nil }
        do {
            let connection = try self.connection ?? RawConnection(path: daemon.socketPath, receiveTimeout: 1)
            self.connection = connection
            try connection.send(line + "\n")
            let (result, _) = readAnswer(connection, hangSeconds: Self.hangSeconds) { false }
            switch result {
            case .line(let bytes):
                guard let answer = try? ResponseParser.parse(bytes) else {
                    problem("\(excerpt(line)): the answer is not JSON: \(excerpt(bytes))")
                    return nil
                }
                if answer["error"]?["code"] == .int(-32603) {
                    problem("\(excerpt(line)): -32603: \(excerpt(bytes))")
                }
                return answer
            case .closed, .aborted:
                broken = true
                problem("\(excerpt(line)): the daemon closed the connection" + exitReport)
            case .hang:
                broken = true
                problem("\(excerpt(line)): no answer in \(Int(Self.hangSeconds)) s (a hang)" + pingElsewhere())
            }
        } catch {
            broken = true
            problem("\(excerpt(line)): \(error)" + exitReport)
        }
        return nil
    }

    private func pingElsewhere() -> String {
        guard let other = try? RawConnection(path: daemon.socketPath, receiveTimeout: 5),
            (try? other.send(#"{"jsonrpc":"2.0","id":"p","method":"daemon.ping"}"# + "\n")) != nil,
            (try? other.readLine()) != nil
        else { return "; daemon.ping on another connection got no answer either" }
        return "; daemon.ping on another connection still answers"
    }

    /// Whether the daemon exited (it may take a moment to be seen), with its status and log.
    private var exitReport: String {
        guard daemon.exited(within: 2) else { return " (the daemon still runs)" }
        let status = daemon.waitForExit(timeout: 1)
        let (_, backtrace) = crashReport(daemon.finalLog())
        return "; the daemon exited with status \(status)\(status == 132 || status == 133 ? " (a Swift runtime trap)" : "")\n\(backtrace ?? logTail)"
    }

    private var logTail: String {
        daemon.log.split(separator: "\n").suffix(15).map { "    " + excerpt(String($0), limit: 300) }.joined(separator: "\n")
    }

    /// `kill -9`, then start again on the same state directory.
    func restart() {
        guard !broken else { return }
        connection = nil
        daemon.kill(SIGKILL)
        daemon.waitForExit()
        do {
            try daemon.start(timeout: 30)
        } catch {
            broken = true
            problem("the daemon did not come back after kill -9: \(error)")
        }
    }

    /// The end of every case: the daemon still runs and answers `daemon.ping`.
    func finish() {
        if !broken {
            if !daemon.isRunning {
                problem("the daemon is gone" + exitReport)
            } else if send(#"{"jsonrpc":"2.0","id":"last","method":"daemon.ping"}"#)?["result"]?["pong"] != .bool(true) {
                problem("daemon.ping did not answer pong at the end")
            }
        }
        connection = nil
        daemon.stop()
    }

    /// A `store.set` of a value nested `depth` deep, another write, reads of everything (whose
    /// answers hold the value a few levels deeper), `kill -9`, restart: the other write is there.
    func deepValueThenDurableWrite(depth: Int) {
        let value = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        send(#"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"key":"deep","value":\#(value)}}"#)
        send(#"{"jsonrpc":"2.0","id":2,"method":"store.set","params":{"key":"after","value":\#(depth)}}"#)
        send(#"{"jsonrpc":"2.0","id":3,"method":"store.get","params":{"key":"deep"}}"#)
        send(#"{"jsonrpc":"2.0","id":4,"method":"store.dump"}"#)
        send(#"{"jsonrpc":"2.0","id":5,"method":"trace.get","params":{"limit":1000}}"#)
        restart()
        let answer = send(#"{"jsonrpc":"2.0","id":6,"method":"store.get","params":{"key":"after"}}"#)
        if let answer, answer["result"]?["value"] != .int(depth) {
            problem("the write after the \(depth)-deep value is gone after kill -9: \(wireText(answer))")
        }
    }

    /// Selects Instagram, opens it and uses it for an hour.
    func instagramHour() {
        send(#"{"jsonrpc":"2.0","id":2,"method":"intent","params":{"name":"selectApps","args":{"apps":["com.burbn.instagram"]}}}"#)
        send(#"{"jsonrpc":"2.0","id":3,"method":"event","params":{"type":"app.open","app":"com.burbn.instagram"}}"#)
        send(#"{"jsonrpc":"2.0","id":4,"method":"clock.advance","params":{"seconds":3600}}"#)
        send(#"{"jsonrpc":"2.0","id":5,"method":"device.state"}"#)
    }

    /// `store.set frictionLevel` to `literal`, `device.state`, `kill -9`, restart, `device.state`:
    /// both answered, and alike.
    func frictionLevelAcrossRestart(_ literal: String) {
        send(#"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"key":"frictionLevel","value":\#(literal)}}"#)
        let before = send(#"{"jsonrpc":"2.0","id":2,"method":"device.state"}"#)
        restart()
        let after = send(#"{"jsonrpc":"2.0","id":2,"method":"device.state"}"#)
        if let before, let after, before != after {
            problem(
                "device.state differs after the restart: \(firstDifference(wireText(before), wireText(after), path: "") ?? "")")
        }
    }
}
