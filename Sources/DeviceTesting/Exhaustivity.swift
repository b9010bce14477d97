@_spi(Host) import SimulatediOS

/// Which effects a ``TestDevice`` step must list, TCA TestStore-style: with ``all`` or
/// ``observable`` an effect the step caused and the test did not list fails the step.
public enum Exhaustivity: Sendable, Equatable {
    /// Every trace entry the step caused, in order, bookkeeping included.
    case all
    /// Everything the app caused or the user would notice, in order: store writes, shields,
    /// notifications, monitor callbacks, activities, races, jetsams, URLs, the app's own events.
    /// `app.state` included. Left out: store reads, an extension's launch/callback/terminate, the
    /// app's log messages, and the entries that only echo the step's own input (`clock.advance`,
    /// `intent`, `wifi`, `call`, `contacts`, `device.reboot`). This is the default (docs/sdk.md).
    case observable
    /// Only the effects of these kinds (`Effect.kind`: `notification`, `shield.shown`…), in order.
    case kinds(Set<String>)
    /// Non-exhaustive: the listed effects must appear in this order among the step's effects
    /// (of any kind); others may come between them.
    case off

    /// The trace kinds ``observable`` leaves out.
    static let bookkeeping: Set<String> = [
        "store.read", "extension.launch", "extension.callback", "extension.terminate", "clock.advance", "intent", "wifi",
        "call", "contacts", "device.reboot", "log",
    ]

    /// Whether a step must list `effect`.
    func covers(_ effect: Effect) -> Bool {
        switch self {
        case .all, .off: true
        case .observable: !Self.bookkeeping.contains(effect.kind)
        case .kinds(let kinds): kinds.contains(effect.kind)
        }
    }
}
