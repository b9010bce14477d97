import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// The simulated platform's own rules, checked beside every app's built-in invariants
/// (docs/scenarios.md, "Built-in invariants"): a schedule that breaks one shows a bug of the simulator,
/// not of the app, and must never be blamed on the app.
///
/// - `shieldShownOnlyOverTheFrontmostApp`: a `shield.shown` covers the app that is frontmost on
///   an unlocked device. A shield drawn while its app closed (ShieldConfiguration still
///   answering) once showed over the home screen.
enum PlatformInvariants {
    static let all = [shieldShownOnlyOverTheFrontmostApp]

    static let shieldShownOnlyOverTheFrontmostApp = AppInvariant(
        name: "shieldShownOnlyOverTheFrontmostApp",
        rule: "a shield shows only over the frontmost app of an unlocked device"
    ) { ShieldShownOnlyOverTheFrontmostApp() }
}

/// The frontmost app, as the trace's `app.state` entries tell it, at each `shield.shown`.
private struct ShieldShownOnlyOverTheFrontmostApp: InvariantCheck {
    private var locked = false
    private var foregroundApp: String?

    mutating func violation(
        in context: any InvariantContext, newEntries: ArraySlice<TraceEntry<Effect>>
    ) throws(DeviceError) -> String? {
        for entry in newEntries {
            switch entry.payload {
            case .appState(let locked, let foregroundApp, _):
                self.locked = locked
                self.foregroundApp = foregroundApp
            case .shieldShown(let app, _, _) where locked || foregroundApp != app:
                let front = locked ? "the device is locked" : foregroundApp.map { "\($0) is frontmost" } ?? "no app is frontmost"
                return "a shield was shown over \(app) while \(front) (trace seq \(entry.sequence))"
            default:
                continue
            }
        }
        return nil
    }
}
