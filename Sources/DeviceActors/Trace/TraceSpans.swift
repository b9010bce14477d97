import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// The slices of an exported trace: each extension callback and each main-app intent, and the
/// events each one holds. The trace records when a callback or an intent begins, not when it
/// ends (and gets no new event kinds: traces are replayed byte for byte), so the end is
/// derived:
///
/// - A **callback** (`extension.callback`) holds the events of its extension launch that follow
///   it, up to the launch's next callback or its `extension.terminate` (not held), or through its
///   `extension.jetsam` (held: the kill ends the callback). Two callbacks of one launch that run
///   at once (only under an exploring schedule) cannot be told apart: the earlier one's slice
///   ends where the later one begins.
/// - An **intent** (`intent`, by `<app>.app`) holds the main app's events that follow it at the
///   same virtual instant, up to the next input: another `intent`, a `clock.advance`, an
///   `outside` write, a call, network, contacts or reboot event of `springBoard`. An intent runs
///   within one virtual instant; main-app work that an `app.open` of the app itself starts at
///   that same instant is counted into the intent before it.
struct TraceSpans {
    struct Span {
        /// The index of the event that began it (the callback or the intent).
        let start: Int
        /// The index of the last event it holds (its start when it holds none).
        fileprivate(set) var last: Int
    }

    private(set) var spans: [Span] = []
    /// For each event index: the span it begins, if any.
    private(set) var spanStarted: [Int?]
    /// For each event index: the span that holds it, if any.
    private(set) var holder: [Int?]

    init(effects: [TracedEffect], pids: [Int], mainAppActor: String) {
        spanStarted = Array(repeating: nil, count: effects.count)
        holder = Array(repeating: nil, count: effects.count)
        var openCallback: [Int: Int] = [:]
        var openIntent: Int?
        for (index, effect) in effects.enumerated() {
            let entry = effect.entry
            if let intent = openIntent, Self.endsIntent(entry, begun: effects[spans[intent].start]) {
                openIntent = nil
            }
            if entry.sandbox != nil {
                let pid = pids[index]
                switch entry.payload {
                case .extensionCallback:
                    openCallback[pid] = begin(at: index)
                case .extensionLaunch, .extensionTerminate:
                    openCallback[pid] = nil
                case .extensionJetsam:
                    if let span = openCallback.removeValue(forKey: pid) { hold(index, in: span) }
                default:
                    if let span = openCallback[pid] { hold(index, in: span) }
                }
            } else if entry.actor == mainAppActor {
                if case .intent = entry.payload {
                    openIntent = begin(at: index)
                } else if let span = openIntent {
                    hold(index, in: span)
                }
            }
        }
    }

    private mutating func begin(at index: Int) -> Int {
        spans.append(Span(start: index, last: index))
        spanStarted[index] = spans.count - 1
        return spans.count - 1
    }

    private mutating func hold(_ index: Int, in span: Int) {
        holder[index] = span
        spans[span].last = index
    }

    /// Whether `entry` is past the end of the intent that `begun` started (see the type's rules).
    private static func endsIntent(_ entry: TraceEntry<Effect>, begun: TracedEffect) -> Bool {
        if entry.time != begun.entry.time || entry.actor == "outside" { return true }
        switch entry.payload {
        case .intent, .clockAdvance, .call, .wifi, .contacts, .reboot: return true
        default: return false
        }
    }
}
