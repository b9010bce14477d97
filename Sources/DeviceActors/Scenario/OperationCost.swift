import ExtensionSandbox

/// How long a visible operation takes on a real iPhone, as the plausibility of a schedule needs
/// it (``SchedulePlausibility``): a process set aside at a preemption must stay paused for as
/// long as what the others do before it runs again takes. The figures are orders of magnitude,
/// not measurements of this simulator (whose platform calls take no virtual time); each says
/// where it comes from.
enum OperationCost {
    /// A switch that needs no longer a pause than this is one the OS makes on its own: the
    /// scheduler's time slice. Assumption: XNU's default quantum is 10 ms (`sched_prim.c`,
    /// `default_preemption_rate` of 100 per second).
    static let quantumMicroseconds = 10_000

    /// The modelled duration of `operation`, in microseconds.
    static func microseconds(of operation: VisibleOperation) -> Int {
        switch (operation.verb, operation.object) {
        // An App Group `UserDefaults` call: an in-memory dictionary behind a lock, written to
        // disk later by cfprefsd. Assumption: tens of microseconds (cfprefsd's XPC round trip).
        case (_, let object) where object.hasPrefix("group."): 20
        // A ManagedSettings write or read: an XPC call to ManagedSettingsAgent, which applies the
        // shield. Assumption: about a millisecond.
        case (_, let object) where object.hasPrefix("ManagedSettingsStore"): 1_000
        // A callback delivered to an extension: iOS launches the extension's process (cold) to
        // run it. Assumption: tens of milliseconds, as an app extension's cold launch.
        case ("deliver", _): 30_000
        // A request on the network: the answer comes back a round trip later. Assumption: 50 ms,
        // a good mobile round trip (Wallet's server declares 50–300 ms; docs/platform.md#network).
        case ("send", "network"): 50_000
        // Everything else is one XPC call to a system daemon (DeviceActivityCenter,
        // UserNotifications, HealthKit, StoreKit…) or a callback returning. Assumption: a millisecond.
        default: 1_000
        }
    }
}
