import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `clarityctl watch`: subscribes to the device's trace and prints each event as it happens, one
/// line each as `trace` prints them (`--json`: each notification as the daemon sent it, one per
/// line). Runs until Ctrl-C (exit 0), the device is removed (exit 0, said on stderr) or
/// clarityd goes away (exit 3).
struct TraceWatch: ClarityCommand {
    static let help = CommandHelp(
        words: ["watch"], synopsis: "[--kind KIND ...]",
        abstract: "print the device's trace events as they happen (subscribe)",
        details: [
            "  --kind KIND  only events of kind KIND, or of the kinds under it, as trace selects;",
            "               repeat it for several kinds",
            "Each line: seq, t, kind, actor, then the other fields. With --json, each notification",
            "as clarityd sent it ({\"method\":\"trace\",\"params\":{…}}), one per line.",
            "When this watch falls behind, clarityd drops events and a line says which (trace shows them).",
            "Runs until Ctrl-C (exit 0), the device is removed (exit 0) or clarityd goes away (exit 3).",
            "Examples:",
            "  clarityctl watch",
            "  clarityctl watch --kind shield --kind notification --device lab",
        ])

    let kinds: [String]

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        kinds = try arguments.values(of: "--kind")
        if kinds.contains("") { throw UsageError("option --kind needs a kind, e.g. store.write") }
    }

    func run(in session: Session) throws {
        // Ctrl-C is how a watch ends: every line is written as it comes, so none is lost. A
        // launcher may have left SIGINT blocked (children of Dispatch threads inherit their mask).
        signal(SIGINT) { _ in _exit(ExitStatus.success.rawValue) }
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        var members: [String: JSONValue] = ["topics": ["trace"]]
        if !kinds.isEmpty { members["kinds"] = .array(kinds.flatMap(TraceGet.selectors).map(JSONValue.string)) }
        _ = try session.call(Method.subscribe.rawValue, params: session.options.deviceParams(members))
        while true {
            let notification = try session.nextNotification()
            let text = session.output.json ? String(decoding: notification.line, as: UTF8.self) : Self.line(for: notification)
            // Nobody reads any more (a closed pipe): the watch is over.
            if let text, !Self.write(text + "\n") { return }
            if notification.method == ServerNotification.traceEnded.rawValue {
                let reason = notification.params["reason"]?.stringValue ?? "closed"
                FileHandle.standardError.write(
                    Data("clarityctl: device \(session.options.device) \(reason == "removed" ? "was removed" : "was closed"); the watch ends\n".utf8))
                return
            }
        }
    }

    /// Writes `text` to stdout at once (unbuffered, so Ctrl-C loses nothing printed); false when
    /// stdout is gone.
    private static func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// A notification as a human line: an event as `trace` prints it, a drop as what is missing
    /// and how to see it; nil for what has no line (the end, said on stderr).
    static func line(for notification: ClarityClient.Notification) -> String? {
        guard case .object(var members) = notification.params else { return nil }
        switch ServerNotification(rawValue: notification.method) {
        case .trace?:
            members["device"] = nil
            return EffectLines.lines(forEvents: [.object(members)], columns: EffectLines.traceColumns).first
        case .traceDropped?:
            let count = members["dropped"]?.intValue ?? 0
            let from = members["from"]?.intValue ?? 0
            let to = members["to"]?.intValue ?? 0
            return "… \(count) events dropped (seq \(from)–\(to)): this watch fell behind; "
                + "clarityctl trace --since \(from - 1) --limit \(to - from + 1) shows them"
        case .traceEnded?, .scenarioProgress?, nil:
            return nil
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#else
    private let systemWrite = Darwin.write
#endif
