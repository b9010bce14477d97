import ControlProtocol

/// How a failed command is reported: its ``ExitStatus``, the text for stderr, and the object
/// `--json` prints on stdout instead (nothing when the result printed says it).
///
/// | failure | status | `--json` |
/// | --- | --- | --- |
/// | the daemon's error | 1 | `{"error":{"code":…,"message":…,"data":…}}` (`data` when it sent one) |
/// | usage | 2 | `{"error":{"message":…,"usage":true}}` |
/// | unreachable, broken, timed out | 3 | `{"error":{"message":…,"unreachable":true}}` |
/// | bench saw error responses, anything else | 1 | `{"error":{"message":…}}` |
/// | a scenario failed (``ScenarioFailed``) | 1 | nothing: the result shows it |
/// | Ctrl-C, after the partial result was shown (``Interrupted``) | 130 | nothing: the result shows it |
struct FailureReport {
    let status: ExitStatus
    let text: String
    let json: JSONValue?

    /// `command` is the command being run (`store get`), for a usage error's help hint.
    init(_ error: any Error, command: String?) {
        switch error {
        case var usage as UsageError:
            if usage.page == nil, let command { usage.page = .command(command) }
            status = .usage
            text = "clarityctl: \(usage.message)\n\(usage.hint)"
            json = Self.json(["message": .string(usage.message), "usage": true])
        case let rpc as RPCError:
            status = .daemonError
            text = Self.describe(rpc)
            var members: [String: JSONValue] = ["code": .int(rpc.code), "message": .string(rpc.message)]
            members["data"] = rpc.data
            json = Self.json(members)
        case let client as ClientError:
            status = .unreachable
            text = "clarityctl: \(client.description)"
            json = Self.json(["message": .string(client.description), "unreachable": true])
        case let failure as ScenarioFailed:
            status = .daemonError
            text = "clarityctl: \(failure.message)"
            json = nil
        case let interrupted as Interrupted:
            status = .interrupted
            text = "clarityctl: \(interrupted.message)"
            json = nil
        case let failure as BenchFailure:
            status = .daemonError
            text = "clarityctl: \(failure.message)"
            json = Self.json(["message": .string(failure.message)])
        default:
            status = .daemonError
            text = "clarityctl: \(error)"
            json = Self.json(["message": .string("\(error)")])
        }
    }

    private static func json(_ members: [String: JSONValue]) -> JSONValue {
        ["error": .object(members)]
    }

    /// `error <code>: <message>`, then the error's `data`: `field` and `reason` on their own
    /// lines, anything else as compact JSON.
    static func describe(_ error: RPCError) -> String {
        var lines = ["error \(error.code): \(error.message)"]
        switch error.data {
        case nil, .null?:
            break
        case .object(let members)? where members.keys.allSatisfy({ ["field", "reason"].contains($0) }):
            if let field = members["field"] { lines.append("  field: \(PlainText.scalar(field))") }
            if let reason = members["reason"] { lines.append("  reason: \(PlainText.scalar(reason))") }
        case let data?:
            lines.append("  data: \(PlainText.compact(data))")
        }
        return lines.joined(separator: "\n")
    }
}
