import SimulatediOS

/// The five friction layers (seed 000, task 11a `FrictionLevel`).
enum FrictionLevel: Int, CaseIterable, Sendable {
    case awareness = 1
    case prosocialText = 2
    case intentionCheck = 3
    case prosocialCall = 4
    case strongEncouragement = 5

    var isProsocial: Bool { self == .prosocialText || self == .prosocialCall }

    var title: String {
        switch self {
        case .awareness: "Awareness Nudge"
        case .prosocialText: "Text Someone"
        case .intentionCheck: "Intention Check"
        case .prosocialCall: "Call Someone"
        case .strongEncouragement: "Strong Encouragement"
        }
    }

    /// Layer 1 is a notification; layers 2–5 shield (docs/apps/clarity.md).
    var shields: Bool { self != .awareness }
}
