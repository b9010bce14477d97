/// Make Hay's shared names (seed 003; docs/apps/makehay.md, "App Group keys"). The app has no
/// extensions: the main app reads HealthKit and writes the shields itself.
enum MakeHayKeys {
    /// Project choice: the seed names no bundle id.
    static let bundleIdentifier = "com.makehay.app"
    /// Project choice: the seed's `SharedStorage`.
    static let appGroup = "group.com.makehay.app"

    /// Data: JSON `{"kind", "target"}` (``HealthGoal``), the seed's `SharedStorage` goal.
    static let healthGoal = "healthGoal"
    /// Int: the step goal, the seed's `@AppStorage("dailyStepGoal")` (Story 2).
    static let dailyStepGoal = "dailyStepGoal"
    /// `YYYY-MM-DD`: the seed's `@AppStorage("lastCheckedDate")` (Story 7).
    static let lastCheckedDate = "lastCheckedDate"
    /// `{"apps", "categories"}`: the seed's persisted `FamilyActivitySelection` (Story 4).
    static let selection = "selection"
}
