/// A screen of the intervention (seed 002, `InterventionManager`'s state machine).
enum InterventionStep: String, Sendable, Codable {
    case breathing, haltCheck, haltRedirect, goalReminder, quickPause, reflection, logItem, dopamineMenu, celebration
}
