import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a command's result is shown to a human. `--json` bypasses it.
enum Presentation {
    /// Tables for arrays of objects, `key: value` lines for objects, effect lines for effects.
    case generic
    case status
    case devices
    case deviceState
    case shields
    case shieldConfig
    case notifications
    case sandboxes
    case trace
    case activities

    func lines(for result: JSONValue) -> [String] {
        switch self {
        case .generic: GenericView.lines(for: result)
        case .status: StatusView.lines(for: result)
        case .devices: DevicesView.lines(for: result)
        case .deviceState: DeviceStateView.lines(for: result)
        case .shields: ShieldsView.lines(for: result)
        case .shieldConfig: ShieldConfigView.lines(for: result)
        case .notifications: NotificationsView.lines(for: result)
        case .sandboxes: SandboxesView.lines(for: result)
        case .trace: EffectLines.lines(forTrace: result)
        case .activities: ActivitiesView.lines(for: result)
        }
    }
}

/// Writes results to stdout: the raw JSON with `--json` (indented on a terminal, one line when
/// piped, so scripts get NDJSON), else the human text of the command's ``Presentation``.
struct Output {
    let json: Bool

    func show(_ result: JSONValue, as presentation: Presentation) {
        show(result, lines: presentation.lines(for: result))
    }

    /// The raw JSON with `--json`, else `lines`: the human text a command made of `result`.
    func show(_ result: JSONValue, lines: @autoclosure () -> [String]) {
        if json {
            showJSON(result)
        } else {
            let lines = lines()
            if !lines.isEmpty { print(lines.joined(separator: "\n")) }
        }
    }

    /// A line of the human text (a heading between several results); nothing with `--json`,
    /// whose output stays one JSON value per result.
    func note(_ line: String) {
        if !json { print(line) }
    }

    func showJSON(_ value: JSONValue) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if isatty(STDOUT_FILENO) == 1 { encoder.outputFormatting.insert(.prettyPrinted) }
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        print(String(decoding: data, as: UTF8.self))
    }
}
