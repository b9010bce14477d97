/// The intervention running in the main app: seed 002's `InterventionManager` is an in-memory
/// singleton, so a relaunched main app has none (project choice, kept as the seed has it).
struct Intervention: Sendable, Equatable {
    let type: InterventionType
    var step: InterventionStep
    /// The shopping app whose shield started it; nil from the panic button.
    var app: String?
    /// Virtual `t`.
    let startedAt: Double
}
