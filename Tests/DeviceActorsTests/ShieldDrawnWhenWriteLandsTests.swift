import DeviceTesting
import ExtensionSandbox
import Testing

@_spi(Host) import SimulatediOS

/// The system reacts to a ManagedSettings write when it lands (docs/platform.md, "The system
/// reacts to writes when they land"): the ShieldConfiguration extension may draw the frontmost
/// app's shield while the monitor that wrote it is still inside its callback, reading an App Group
/// the callback has not finished writing. Before, the shield was drawn only after the callback
/// returned, and the explorer could not reach that interleaving.
@Suite struct ShieldDrawnWhenWriteLandsTests {
    static let suite = "group.com.example.landing"

    /// `intervalDidStart`: shields Instagram, then writes why (`reason`) — in that order, as an
    /// app that thinks of the shield first would.
    struct ShieldingMonitor: DeviceActivityMonitor {
        let platform: Platform

        func intervalDidStart(for activity: String) async throws {
            try await platform.managedSettingsStore().setShield(applications: [instagram], categories: .none)
            try await platform.userDefaults(suiteName: ShieldDrawnWhenWriteLandsTests.suite).set("bedtime", forKey: "reason")
        }
    }

    /// Shows the `reason` the App Group holds when it draws, and keeps the text it drew
    /// (`drawn`), so that a scenario can see it.
    struct ReasonShield: ShieldConfigurationDataSource {
        let platform: Platform

        func configuration(shielding application: String) async throws -> ShieldConfiguration {
            let defaults = platform.userDefaults(suiteName: ShieldDrawnWhenWriteLandsTests.suite)
            let subtitle = "Blocked: \(try await defaults.string(forKey: "reason") ?? "no reason yet")"
            try await defaults.set(subtitle, forKey: "drawn")
            return ShieldConfiguration(title: "Shielded", subtitle: subtitle, primaryButtonLabel: "Close", secondaryButtonLabel: nil)
        }

        func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
            try await configuration(shielding: application)
        }
    }

    struct WatchingMainApp: Sendable {
        let platform: Platform
    }

    struct LandingApp: SimulatedApp {
        let bundleIdentifier = "com.example.landing"
        let appGroup = ShieldDrawnWhenWriteLandsTests.suite
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { ShieldingMonitor(platform: platform) }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
            ReasonShield(platform: platform)
        }

        /// `watch`: monitors the whole day, whose interval has begun (intervalDidStart at once).
        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<WatchingMainApp>.named("watch", NoArguments.self) { app, _ in
                        let day = DeviceActivitySchedule(
                            intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                            intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true)
                        try await app.platform.deviceActivityCenter.startMonitoring("day", during: day)
                        return "watching"
                    }
                ],
                on: WatchingMainApp(platform: platform))
        }
    }

    static let landing = AppRegistration(
        description: AppDescription(
            name: "landing", bundleIdentifier: "com.example.landing", appGroup: suite, available: true, intents: [])
    ) { platform, _ in LandingApp(platform: platform) }

    /// Instagram in front; the monitor's callback shields it; once the shield shows, it must tell why.
    static func scenario() throws -> Scenario {
        try Scenario(
            "the shield drawn mid-callback", app: landing,
            steps: [
                .event(.appOpen(app: instagram)),
                .intent(name: "watch", arguments: JSONArguments()),
                .waitUntil(.shieldShown(app: instagram), within: 60),
                .expect(.store(suite: suite, key: "drawn", .equals(.string("Blocked: bedtime")))),
            ])
    }

    /// dfs finds the schedule where SpringBoard reacts to the shield write at once and
    /// ShieldConfiguration draws before the callback's next line: the shield reads
    /// "no reason yet". With the shield drawn after the callback returned, dfs ran out of
    /// schedules without it (exhaustive, every schedule passing).
    @Test func dfsFindsTheShieldDrawnBeforeTheCallbackWroteItsReason() throws {
        let failure = try Self.scenario().exploreExpectingFailure(ExplorationPlan(strategy: .dfs, schedules: 10_000))
        #expect(failure.message == "expected store drawn equals \"Blocked: bedtime\": got \"Blocked: no reason yet\"")
        #expect(failure.step == "steps[3]")
        let replayed = #expect(throws: ExplorationFailed.self) { try Self.scenario().replay(schedule: failure.schedule) }
        #expect(replayed?.reason.step == "steps[3]")
    }

    /// The scenario's own schedule runs the callback on to its end first: the shield tells why.
    @Test func theOwnScheduleDrawsTheShieldWithItsReason() throws {
        try Self.scenario().run()
    }
}
