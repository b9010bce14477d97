import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) import SimulatediOS

/// `UserDefaults` as iOS code uses it: typed `set` overloads, the typed getters, and
/// `register(defaults:)` — a registration domain that belongs to the process that registered,
/// is never stored, and is gone when an extension is launched again.
@Suite struct UserDefaultsTests {
    static let group = "group.com.example.defaults"

    struct DefaultsMainApp: Sendable {
        let platform: Platform
        var defaults: AppGroupDefaults { platform.userDefaults(suiteName: UserDefaultsTests.group) }

        func configure() async throws -> String {
            try await defaults.register(defaults: [
                "limit": .int(30), "ratio": .double(0.5), "tags": .array([.string("social")]),
                "colors": .dictionary(["shield": .string("blue")]),
            ])
            try await defaults.set(URL(string: "https://example.com/why")!, forKey: "help")
            try await defaults.set(["a", "b"], forKey: "picked")
            try await platform.deviceActivityCenter.startMonitoring(
                "daily", during: allDay,
                events: ["used": DeviceActivityEvent(applications: ["com.burbn.instagram"], threshold: DateComponentsSpec(minute: 1))])
            let tags = try await defaults.array(forKey: "tags")?.compactMap(\.stringValue) ?? []
            let colors = try await defaults.dictionary(forKey: "colors")?["shield"]?.stringValue ?? "-"
            return [
                "limit=\(try await defaults.integer(forKey: "limit"))",
                "ratio=\(try await defaults.double(forKey: "ratio"))",
                "tags=\(tags)", "shield=\(colors)",
                "help=\(try await defaults.url(forKey: "help")?.host ?? "-")",
                "picked=\(try await defaults.stringArray(forKey: "picked") ?? [])",
                "missing=\(try await defaults.float(forKey: "missing"))",
            ].joined(separator: " ")
        }

        func readRatio() async throws -> String { "ratio=\(try await defaults.double(forKey: "ratio"))" }

        func setLimit() async throws -> String {
            try await defaults.set(10, forKey: "limit")
            return "limit=\(try await defaults.integer(forKey: "limit"))"
        }
    }

    /// Writes what it reads of `limit` before and after registering its own default, and what
    /// its next launch reads.
    struct DefaultsMonitor: DeviceActivityMonitor {
        let platform: Platform
        var defaults: AppGroupDefaults { platform.userDefaults(suiteName: UserDefaultsTests.group) }

        func intervalDidStart(for activity: DeviceActivityName) async throws {
            try await defaults.set(try await defaults.integer(forKey: "limit"), forKey: "monitorBefore")
            try await defaults.register(defaults: ["limit": .int(45)])
            try await defaults.set(try await defaults.integer(forKey: "limit"), forKey: "monitorAfter")
        }

        func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
            try await defaults.set(try await defaults.integer(forKey: "limit"), forKey: "monitorNextLaunch")
        }
    }

    struct DefaultsApp: SimulatedApp {
        let bundleIdentifier = "com.example.defaults"
        let appGroup = UserDefaultsTests.group
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { DefaultsMonitor(platform: platform) }
        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<DefaultsMainApp>.named("configure", NoArguments.self) { app, _ in try await app.configure() },
                    AppIntent<DefaultsMainApp>.named("setLimit", NoArguments.self) { app, _ in try await app.setLimit() },
                    AppIntent<DefaultsMainApp>.named("readRatio", NoArguments.self) { app, _ in try await app.readRatio() },
                ],
                on: DefaultsMainApp(platform: platform))
        }
    }

    @Test func registeredDefaultsAnswerForAbsentKeysInTheRegisteringProcessOnly() throws {
        let device = try TestDevice(appName: "defaults", exhaustivity: .off) { platform, _ in DefaultsApp(platform: platform) }
        #expect(
            try device.intent("configure")
                == "limit=30 ratio=0.5 tags=[\"social\"] shield=blue help=example.com picked=[\"a\", \"b\"] missing=0.0")
        #expect(try device.value(forKey: "limit", suite: Self.group) == nil, "a registered default is never stored")
        #expect(try device.value(forKey: "help", suite: Self.group) == .string("https://example.com/why"))
        #expect(try device.value(forKey: "monitorBefore", suite: Self.group) == .int(0), "the main app's registration is its own")
        #expect(try device.value(forKey: "monitorAfter", suite: Self.group) == .int(45))

        try device.send(.appOpen(app: "com.burbn.instagram"))
        try device.advance(minutes: 1)
        #expect(try device.value(forKey: "monitorNextLaunch", suite: Self.group) == .int(0), "a new launch registers again")

        #expect(try device.intent("setLimit") == "limit=10", "a stored value wins over the registered one")

        #expect(try device.intent("readRatio") == "ratio=0.5")
        try device.send(.appTerminate(app: "com.example.defaults"))
        try device.send(.appOpen(app: "com.example.defaults"))
        #expect(try device.intent("readRatio") == "ratio=0.0", "the main app's next launch registers again")
    }
}
