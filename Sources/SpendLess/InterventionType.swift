/// The kinds of intervention (seed 002, "Types: `.breathing`, `.haltCheck`, `.goalReminder`,
/// `.quickPause`, `.fullFlow`"); the user picks the one started next (`setInterventionType`).
enum InterventionType: String, Sendable, Codable, CaseIterable {
    case breathing, haltCheck, goalReminder, quickPause, fullFlow

    /// Project choice (docs/apps/spendless.md, "Intents"): `fullFlow` until the user picks another.
    static let standard = InterventionType.fullFlow

    /// Where an intervention of this type starts (docs/apps/spendless.md, "The intervention flow";
    /// `goalReminder` and `quickPause` are project choices, the seed draws no step for them).
    var firstStep: InterventionStep {
        switch self {
        case .breathing, .fullFlow: .breathing
        case .haltCheck: .haltCheck
        case .goalReminder: .goalReminder
        case .quickPause: .quickPause
        }
    }
}
