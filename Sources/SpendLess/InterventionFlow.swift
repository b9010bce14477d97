/// The intervention state machine as a pure value: seed 002's two orders, reconciled as
/// docs/apps/spendless.md, "The intervention flow" says. The diagram's top line (breathing →
/// reflection → logItem or dopamineMenu → celebration) is type `breathing`; its bottom line
/// (haltCheck → haltRedirect → celebration) is type `haltCheck`; the service table's "breathing →
/// HALT → reflection → celebration" is `fullFlow`.
enum InterventionFlow {
    /// Why a step cannot be taken.
    enum Refusal: Error, Equatable {
        /// At `celebration`: nothing follows, only `intervention.finish`.
        case complete
        /// `choice` missing, not one this step takes, or given where none is taken.
        case invalidChoice(String)
    }

    /// The step after `step` of an intervention of `type`, given the user's `choice`.
    static func next(after step: InterventionStep, of type: InterventionType, choice: String?) -> Result<InterventionStep, Refusal> {
        switch step {
        case .celebration:
            return .failure(.complete)
        case .haltCheck:
            // A HALT need (hungry, angry, lonely, tired) redirects; none goes on to reflect.
            switch choice {
            case nil: return .success(.reflection)
            case "redirect": return .success(.haltRedirect)
            default: return .failure(.invalidChoice("at haltCheck: redirect, or none"))
            }
        case .reflection:
            switch choice {
            case "logItem": return .success(.logItem)
            case "dopamineMenu": return .success(.dopamineMenu)
            default: return .failure(.invalidChoice("at reflection: logItem or dopamineMenu"))
            }
        case .breathing, .haltRedirect, .goalReminder, .quickPause, .logItem, .dopamineMenu:
            guard choice == nil else { return .failure(.invalidChoice("\(step.rawValue) takes no choice")) }
            return .success(following(step, of: type))
        }
    }

    /// The one way on from a step that takes no choice.
    private static func following(_ step: InterventionStep, of type: InterventionType) -> InterventionStep {
        switch step {
        case .breathing: type == .fullFlow ? .haltCheck : .reflection
        case .goalReminder: .reflection
        default: .celebration
        }
    }
}
