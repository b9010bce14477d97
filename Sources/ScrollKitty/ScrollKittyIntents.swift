import SimulatediOS

/// ScrollKitty's user actions (docs/apps/scrollkitty.md, "Intents"): the seed's configuration
/// screens, each one's arguments decoded strictly and validated before anything runs. Every
/// intent answers the dashboard (``ScrollKittyState``).
typealias ScrollKittyIntent = AppIntent<ScrollKittyMainApp>

extension ScrollKittyIntent {
    static let all: [ScrollKittyIntent] = [
        .named("selectApps", SelectApps.self, "apps=[bundle ids] (1 to 10)") { app, input in
            try await app.selectApps(input.apps)
        },
        .named("setShieldFrequency", ShieldFrequency.self, "minutes=10…60") { app, input in
            try await app.setShieldFrequency(minutes: input.minutes)
        },
        .named("setFocusWindow", FocusWindowInput.self, "startHour=0…23 endHour=0…23 weekdays=[1…7] (1 = Sunday)") {
            app, input in
            try await app.setFocusWindow(
                FocusWindow(startHour: input.startHour, endHour: input.endHour, weekdays: Array(Set(input.weekdays)).sorted()))
        },
        .named("setDailyLimit", DailyLimit.self, "hours=3…8") { app, input in try await app.setDailyLimit(hours: input.hours) },
    ]

    /// `selectApps`: 1–10 bundle ids (seed 004: "FamilyActivityPicker with 10-app maximum"),
    /// none empty, none twice (project choice).
    struct SelectApps: IntentInput {
        var apps: [String]

        func validate() throws(DeviceError) {
            guard (1...ScrollKittyKeys.maxApps).contains(apps.count) else {
                throw .invalidArgument(field: "args.apps", reason: "1 to \(ScrollKittyKeys.maxApps) bundle ids")
            }
            for (index, app) in apps.enumerated() where app.isEmpty {
                throw .invalidArgument(field: "args.apps[\(index)]", reason: "must not be empty")
            }
            guard Set(apps).count == apps.count else {
                throw .invalidArgument(field: "args.apps", reason: "an app may be selected only once")
            }
        }
    }

    /// `setShieldFrequency`: 10–60 minutes (seed 004: "Cooldown timer (10-60 min)").
    struct ShieldFrequency: IntentInput {
        var minutes: Int

        func validate() throws(DeviceError) {
            guard (10...60).contains(minutes) else { throw .invalidArgument(field: "args.minutes", reason: "10 to 60 minutes") }
        }
    }

    /// `setFocusWindow`: hours 0–23, weekdays a non-empty subset of 1–7 (1 = Sunday).
    struct FocusWindowInput: IntentInput {
        var startHour: Int
        var endHour: Int
        var weekdays: [Int]

        func validate() throws(DeviceError) {
            guard (0...23).contains(startHour) else { throw .invalidArgument(field: "args.startHour", reason: "0 to 23") }
            guard (0...23).contains(endHour) else { throw .invalidArgument(field: "args.endHour", reason: "0 to 23") }
            guard !weekdays.isEmpty else {
                throw .invalidArgument(field: "args.weekdays", reason: "at least one weekday (1 = Sunday … 7)")
            }
            for (index, weekday) in weekdays.enumerated() where !(1...7).contains(weekday) {
                throw .invalidArgument(field: "args.weekdays[\(index)]", reason: "1 (Sunday) to 7 (Saturday)")
            }
        }
    }

    /// `setDailyLimit`: 3–8 hours (seed 004: "Daily Limit: User awareness setting (3-8 hours)").
    struct DailyLimit: IntentInput {
        var hours: Int

        func validate() throws(DeviceError) {
            guard (3...8).contains(hours) else { throw .invalidArgument(field: "args.hours", reason: "3 to 8 hours") }
        }
    }
}
