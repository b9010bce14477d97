import ExtensionSandbox

/// A rule an app must keep whatever the interleaving: built in per app, on by default in every
/// scenario, checked after every step and at the end (docs/scenarios.md).
public struct AppInvariant: Sendable {
    /// The name a failure reports (`invariant`).
    public let name: String
    /// What the rule says, for docs and failure messages.
    public let rule: String
    /// Why the device breaks the rule now, or nil.
    let violation: @Sendable (SimulatedDevice) throws(DeviceError) -> String?
}

extension AppCatalog {
    /// The built-in invariants of `app`.
    static func invariants(of app: String) -> [AppInvariant] {
        switch app {
        case "clarity": ClarityInvariants.all
        default: []
        }
    }
}

extension SimulatedDevice {
    /// Everything traced so far, oldest first.
    var traceSoFar: ArraySlice<TraceEntry<Effect>> { trace.recorder.entries(after: 0) }
}
