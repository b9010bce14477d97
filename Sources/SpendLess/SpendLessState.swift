/// What `device.state.app` shows for SpendLess (docs/apps/spendless.md#devicestateapp), and what
/// every intent answers. Every field is present, null when unset; times are ISO-8601 UTC. Decodable
/// too, so tests read the dashboard back as it is.
struct SpendLessState: Codable, Sendable, Equatable {
    /// `{"type", "step", "app", "startedAt"}`; `app` null from the panic button.
    struct RunningIntervention: Codable, Sendable, Equatable {
        let type: String
        let step: String
        let app: String?
        let startedAt: String

        private enum CodingKeys: String, CodingKey { case type, step, app, startedAt }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encode(step, forKey: .step)
            try c.encode(app, forKey: .app)
            try c.encode(startedAt, forKey: .startedAt)
        }
    }

    /// `{"app", "endsAt"}`.
    struct Session: Codable, Sendable, Equatable {
        let app: String
        let endsAt: String
    }

    /// A waiting-list item; `ready` once its 7 days are over.
    struct Item: Codable, Sendable, Equatable {
        let id: Int
        let name: String
        let price: Double
        let addedAt: String
        let readyAt: String
        let ready: Bool
    }

    /// A graveyard item.
    struct Buried: Codable, Sendable, Equatable {
        let name: String
        let price: Double
        let buriedAt: String
    }

    let selectedApps: [String]
    let interventionType: String
    let interventionTriggered: Bool
    let triggeredApp: String?
    let intervention: RunningIntervention?
    let accessSession: Session?
    let waitingList: [Item]
    let graveyard: [Buried]
    let resistedCount: Int

    private enum CodingKeys: String, CodingKey {
        case selectedApps, interventionType, interventionTriggered, triggeredApp, intervention, accessSession, waitingList,
            graveyard, resistedCount
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(selectedApps, forKey: .selectedApps)
        try c.encode(interventionType, forKey: .interventionType)
        try c.encode(interventionTriggered, forKey: .interventionTriggered)
        try c.encode(triggeredApp, forKey: .triggeredApp)
        try c.encode(intervention, forKey: .intervention)
        try c.encode(accessSession, forKey: .accessSession)
        try c.encode(waitingList, forKey: .waitingList)
        try c.encode(graveyard, forKey: .graveyard)
        try c.encode(resistedCount, forKey: .resistedCount)
    }
}
