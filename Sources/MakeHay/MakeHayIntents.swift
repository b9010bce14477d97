import SimulatediOS

/// Make Hay's user actions (docs/apps/makehay.md, "Intents"): the Settings tab's goal and app
/// picker, and the debug toggle of Story 5. Each answers the dashboard (``MakeHayState``).
typealias MakeHayIntent = AppIntent<MakeHayMainApp>

extension MakeHayIntent {
    static let all: [MakeHayIntent] = [
        .named("selectApps", SelectApps.self, "apps=[bundle ids] [categories=[names]]") { app, input in
            try await app.selectApps(input.apps, categories: input.categories ?? [])
        },
        .named("setGoal", SetGoal.self, "kind=steps|activeEnergy|exerciseMinutes target=N") { app, input in
            try await app.setGoal(HealthGoal(kind: try input.quantity(), target: input.target))
        },
        .named("forceBlock", ForceBlock.self, "enabled=true|false") { app, input in
            try await app.forceBlock(input.enabled)
        },
    ]

    /// `selectApps`: at least one app or category, none empty.
    struct SelectApps: IntentInput {
        var apps: [String]
        var categories: [String]?

        func validate() throws(DeviceError) {
            guard !apps.isEmpty || !(categories ?? []).isEmpty else {
                throw .invalidArgument(field: "args.apps", reason: "at least one bundle id (or a category)")
            }
            for (index, app) in apps.enumerated() where app.isEmpty {
                throw .invalidArgument(field: "args.apps[\(index)]", reason: "must not be empty")
            }
            for (index, category) in (categories ?? []).enumerated() where category.isEmpty {
                throw .invalidArgument(field: "args.categories[\(index)]", reason: "must not be empty")
            }
        }
    }

    /// `setGoal`: a kind and a target in that kind's steps and range (``HealthGoal/allowed(_:)``).
    struct SetGoal: IntentInput {
        var kind: String
        var target: Int

        func quantity() throws(DeviceError) -> HealthQuantityType {
            guard let quantity = HealthQuantityType(rawValue: kind) else {
                let kinds = HealthQuantityType.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidArgument(field: "args.kind", reason: "one of \(kinds)")
            }
            return quantity
        }

        func validate() throws(DeviceError) {
            let allowed = HealthGoal.allowed(try quantity())
            guard allowed.range.contains(target), target % allowed.step == 0 else {
                throw .invalidArgument(
                    field: "args.target",
                    reason: "a multiple of \(allowed.step) from \(allowed.range.lowerBound) to \(allowed.range.upperBound) \(allowed.unit)")
            }
        }
    }

    /// `forceBlock`: the seed's "Force Block Apps" debug toggle.
    struct ForceBlock: IntentInput {
        var enabled: Bool
    }
}
