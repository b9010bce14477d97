import SimulatediOS

/// SpendLess's user actions (docs/apps/spendless.md, "Intents"), each one's arguments decoded
/// strictly and validated before anything runs. Every intent answers the dashboard
/// (``SpendLessState``).
typealias SpendLessIntent = AppIntent<SpendLessMainApp>

extension SpendLessIntent {
    static let all: [SpendLessIntent] = [
        .named("selectApps", SelectApps.self, "apps=[bundle ids] [categories=[names]]") { app, input in
            try await app.selectApps(input.apps, categories: input.categories ?? [])
        },
        .named("setInterventionType", TypeChoice.self, "type=breathing|haltCheck|goalReminder|quickPause|fullFlow") {
            app, input in
            try await app.setInterventionType(try input.interventionType)
        },
        .named("intervention.start", StartIntervention.self, "[type=breathing|haltCheck|goalReminder|quickPause|fullFlow]") {
            app, input in
            try await app.startIntervention(type: try input.type.map { try TypeChoice(type: $0).interventionType })
        },
        .named("intervention.next", Next.self, "[choice=redirect|logItem|dopamineMenu] [item={\"name\",\"price\"}]") {
            app, input in
            try await app.nextStep(choice: input.choice, item: input.item)
        },
        .named("intervention.finish", Finish.self, "outcome=resisted|access") { app, input in
            try await app.finish(try input.parsedOutcome)
        },
        .named("logItem", Item.self, "name=TEXT price=NUMBER") { app, input in
            try await app.logItem(name: input.name, price: input.price)
        },
        .named("waitingList.resolve", Resolve.self, "id=N decision=buried|bought") { app, input in
            try await app.resolve(id: input.id, decision: try input.parsedDecision)
        },
    ]

    /// `selectApps`: at least one bundle id, none empty, none twice; category names not empty.
    struct SelectApps: IntentInput {
        var apps: [String]
        var categories: [String]?

        func validate() throws(DeviceError) {
            guard !apps.isEmpty else { throw .invalidArgument(field: "args.apps", reason: "at least one bundle id") }
            for (index, app) in apps.enumerated() where app.isEmpty {
                throw .invalidArgument(field: "args.apps[\(index)]", reason: "must not be empty")
            }
            guard Set(apps).count == apps.count else {
                throw .invalidArgument(field: "args.apps", reason: "an app may be selected only once")
            }
            for (index, category) in (categories ?? []).enumerated() where category.isEmpty {
                throw .invalidArgument(field: "args.categories[\(index)]", reason: "must not be empty")
            }
        }
    }

    /// `setInterventionType`: one of seed 002's five types.
    struct TypeChoice: IntentInput {
        var type: String

        var interventionType: InterventionType {
            get throws(DeviceError) { try oneOf(type, field: "args.type") }
        }

        func validate() throws(DeviceError) { _ = try interventionType }
    }

    /// `intervention.start`: an optional type.
    struct StartIntervention: IntentInput {
        var type: String?

        func validate() throws(DeviceError) {
            if let type { try TypeChoice(type: type).validate() }
        }
    }

    /// `intervention.next`: the step's choice, and the item logged at `logItem`.
    struct Next: IntentInput {
        var choice: String?
        var item: Item?

        func validate() throws(DeviceError) { try item?.validate(at: "args.item") }
    }

    /// `logItem` (and `intervention.next`'s `item`): a name and a price ≥ 0.
    struct Item: IntentInput {
        var name: String
        var price: Double

        func validate() throws(DeviceError) { try validate(at: "args") }

        /// `path` is where the item sits in the request: `args` for `logItem`, `args.item` inside
        /// `intervention.next`.
        func validate(at path: String) throws(DeviceError) {
            guard !name.isEmpty else { throw .invalidArgument(field: "\(path).name", reason: "must not be empty") }
            guard price.isFinite, price >= 0 else { throw .invalidArgument(field: "\(path).price", reason: "a price ≥ 0") }
        }
    }

    /// `intervention.finish`: `resisted` or `access`.
    struct Finish: IntentInput {
        enum Outcome: String, CaseIterable { case resisted, access }
        var outcome: String

        var parsedOutcome: Outcome {
            get throws(DeviceError) { try oneOf(outcome, field: "args.outcome") }
        }

        func validate() throws(DeviceError) { _ = try parsedOutcome }
    }

    /// `waitingList.resolve`: an item's id and what became of it.
    struct Resolve: IntentInput {
        enum Decision: String, CaseIterable { case buried, bought }
        var id: Int
        var decision: String

        var parsedDecision: Decision {
            get throws(DeviceError) { try oneOf(decision, field: "args.decision") }
        }

        func validate() throws(DeviceError) { _ = try parsedDecision }
    }
}

/// `value` as one of `Choice`'s cases, else refused naming `field` and the cases.
private func oneOf<Choice: RawRepresentable & CaseIterable>(_ value: String, field: String) throws(DeviceError) -> Choice
where Choice.RawValue == String {
    guard let choice = Choice(rawValue: value) else {
        throw .invalidArgument(field: field, reason: "one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return choice
}
