/// The seed's verification state machine (`enum SetupState: Codable`). The simulated app sets
/// `notStarted`, `awaitingVerification`, `verified` and `failed(.noEventReceived)`; the seed never
/// sets `inProgress` nor the reasons `automationNotCreated` and `unknown` (the last only when the
/// window is missing, which cannot happen), so they exist as declared (docs/apps/thephone.md,
/// "Setup and tracking health").
enum SetupState: Sendable, Equatable {
    case notStarted
    case inProgress
    case awaitingVerification
    /// Seed: `verified(Date)`, here ms since 1970.
    case verified(Int64)
    case failed(FailureReason)

    /// Seed: `enum FailureReason: Codable`.
    enum FailureReason: String, Codable, Sendable {
        case noEventReceived
        case automationNotCreated
        case unknown
    }

    /// The case's name (`device.state.app.setup.state`).
    var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .inProgress: "inProgress"
        case .awaitingVerification: "awaitingVerification"
        case .verified: "verified"
        case .failed: "failed"
        }
    }

    var reason: FailureReason? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    var verifiedAt: Int64? {
        if case .verified(let date) = self { return date }
        return nil
    }

    /// The state from its parts (a snapshot's); an unknown name is `notStarted`.
    init(name: String, reason: FailureReason?, verifiedAt: Int64?) {
        switch name {
        case "inProgress": self = .inProgress
        case "awaitingVerification": self = .awaitingVerification
        case "verified": self = .verified(verifiedAt ?? 0)
        case "failed": self = .failed(reason ?? .unknown)
        default: self = .notStarted
        }
    }
}
