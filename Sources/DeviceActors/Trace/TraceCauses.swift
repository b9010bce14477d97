@_spi(Host) import SimulatediOS

/// Which trace event caused which, for an exported trace's flow arrows. The trace records no
/// causes, so they are derived from its order and actors, by these rules (each names its
/// arrows):
///
/// | rule | cause | effect |
/// | --- | --- | --- |
/// | `startMonitoring` | the latest `activity.start` of activity A | each DeviceActivity delivery of A (`monitor.intervalStart`, `.intervalEnd`, `.threshold`, `.warning`) |
/// | `delivery` | a delivery | the next monitor `extension.callback` of the matching name (`monitor.threshold` → `eventDidReachThreshold`, …) not yet matched |
/// | `change` | an extension callback | each `store.write`, `store.remove`, `shield.apply`, `shield.clear` and `notification` it holds (``TraceSpans``) |
/// | `configuration` | the latest ShieldConfiguration callback not yet matched | the next `shield.shown` |
/// | `shielding` | the latest `shield.apply` at the same virtual instant | a `shield.shown` |
/// | `press` | the latest `shield.shown` | a ShieldAction callback (`handle(action:for:)`), the press it answers |
/// | `response` | a ShieldAction callback | the next `shield.action` (SpringBoard's record of its answer) |
///
/// So a friction run reads `startMonitoring` → `delivery` → `change` (the monitor's
/// `shield.apply`) → `shielding` → `press` → `response` across the tracks. Causes outside the
/// exported window draw no arrow.
struct TraceCauses {
    enum Rule: String {
        case startMonitoring, delivery, change, configuration, shielding, press, response
    }

    struct Link {
        let cause: Int
        let effect: Int
        let rule: Rule
    }

    /// In order of their effects.
    private(set) var links: [Link] = []

    init(effects: [TracedEffect], spans: TraceSpans) {
        var monitoringStarted: [String: Int] = [:]
        var deliveries: [(index: Int, callback: String)] = []
        var configuration: Int?
        var applied: Int?
        var shown: Int?
        var presses: [Int] = []
        for (index, effect) in effects.enumerated() {
            let entry = effect.entry
            if let holder = spans.holder[index], Self.isChange(entry.payload) {
                let callback = spans.spans[holder].start
                if effects[callback].entry.sandbox != nil { link(callback, index, .change) }
            }
            switch entry.payload {
            case .activityStart(let activity):
                monitoringStarted[activity] = index
            case .monitorIntervalStart(let activity), .monitorIntervalEnd(let activity),
                .monitorThreshold(let activity, _), .monitorWarning(let activity, _, _):
                if let start = monitoringStarted[activity] { link(start, index, .startMonitoring) }
                if let callback = Self.callbackName(of: entry.payload) { deliveries.append((index, callback)) }
            case .extensionCallback(let name):
                switch entry.sandbox {
                case "monitor":
                    if let match = deliveries.firstIndex(where: { $0.callback == name }) {
                        link(deliveries.remove(at: match).index, index, .delivery)
                    }
                case "shieldConfiguration":
                    configuration = index
                case "shieldAction":
                    if let shown { link(shown, index, .press) }
                    presses.append(index)
                default:
                    break
                }
            case .shieldApply:
                applied = index
            case .shieldShown:
                if let source = configuration { link(source, index, .configuration) }
                configuration = nil
                if let applied, effects[applied].entry.time == entry.time { link(applied, index, .shielding) }
                shown = index
            case .shieldAction:
                if !presses.isEmpty { link(presses.removeFirst(), index, .response) }
            default:
                break
            }
        }
    }

    private mutating func link(_ cause: Int, _ effect: Int, _ rule: Rule) {
        links.append(Link(cause: cause, effect: effect, rule: rule))
    }

    /// The effects a callback's `change` arrows point at: what it changed, not what it read.
    private static func isChange(_ effect: Effect) -> Bool {
        switch effect {
        case .storeWrite, .storeRemove, .shieldApply, .shieldClear, .notification: true
        default: false
        }
    }

    /// The monitor callback a DeviceActivity delivery runs (`MonitorCallback.name`).
    private static func callbackName(of delivery: Effect) -> String? {
        switch delivery {
        case .monitorIntervalStart: "intervalDidStart"
        case .monitorIntervalEnd: "intervalDidEnd"
        case .monitorThreshold: "eventDidReachThreshold"
        case .monitorWarning(_, .intervalWillStart, _): "intervalWillStartWarning"
        case .monitorWarning(_, .intervalWillEnd, _): "intervalWillEndWarning"
        case .monitorWarning(_, .eventWillReachThreshold, _): "eventWillReachThresholdWarning"
        default: nil
        }
    }
}
