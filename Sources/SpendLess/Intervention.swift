/// The intervention running in the main app: seed 002's `InterventionManager` is an in-memory
/// singleton, so it lives in the main app's memory. That memory is the device's, not the
/// daemon's: it is saved in the device's snapshot (``SpendLessMainApp/persistentData()``), so a
/// daemon restart or `kill -9` keeps it, as it keeps everything else a device holds; the system
/// ending the app's process (`app.terminate`) loses it.
struct Intervention: Sendable, Equatable, Codable {
    let type: InterventionType
    var step: InterventionStep
    /// The shopping app whose shield started it; nil from the panic button.
    var app: String?
    /// Virtual `t`.
    let startedAt: Double
}
