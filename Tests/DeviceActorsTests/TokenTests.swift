import ControlProtocol
import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) @testable import SimulatediOS

/// Apps hold what the user picked as opaque tokens (`FamilyActivitySelection`), keep them in the
/// App Group, and hand them to ManagedSettings, DeviceActivity and back from the shield
/// extensions; only the platform knows which app a token is.
@Suite struct TokenTests {
    static let group = "group.com.example.tokens"

    struct Pick: IntentInput {
        var apps: [String]
        func validate() throws(DeviceError) {}
    }

    struct TokenMainApp: Sendable {
        let platform: Platform

        func pick(_ apps: [String]) async throws -> String {
            let selection = platform.familyActivityPicker.selection(applications: apps)
            try await platform.userDefaults(suiteName: TokenTests.group).set(
                .data(try JSONEncoder().encode(selection)), forKey: "selection")
            try await platform.deviceActivityCenter.startMonitoring(
                "daily", during: allDay,
                events: ["limit": DeviceActivityEvent(applications: selection.applicationTokens, threshold: DateComponentsSpec(minute: 1))])
            return "picked"
        }
    }

    static func selection(_ platform: Platform) async throws -> FamilyActivitySelection {
        let data = try await platform.userDefaults(suiteName: group).data(forKey: "selection") ?? Data()
        return try JSONDecoder().decode(FamilyActivitySelection.self, from: data)
    }

    struct TokenMonitor: DeviceActivityMonitor {
        let platform: Platform
        func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
            let picked = try await TokenTests.selection(platform)
            try await platform.managedSettingsStore(named: "picked").setShieldApplications(tokens: picked.applicationTokens)
        }
    }

    struct TokenShield: ShieldConfigurationDataSource {
        func configuration(shielding application: Application) async throws -> ShieldConfiguration {
            ShieldConfiguration(
                title: .init(text: "\(application.localizedDisplayName ?? "This app") is paused"),
                primaryButtonLabel: .init(text: "OK"), secondaryButtonLabel: .init(text: "Why?"))
        }
    }

    struct TokenAction: ShieldActionDelegate {
        let platform: Platform
        func handle(action: ShieldButton, for application: ApplicationToken) async throws -> ShieldActionResponse {
            try await TokenTests.selection(platform).applicationTokens.contains(application) && action == .secondary ? .defer : .close
        }
    }

    struct TokenApp: SimulatedApp {
        let bundleIdentifier = "com.example.tokens"
        let appGroup = TokenTests.group
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { TokenMonitor(platform: platform) }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource { TokenShield() }
        func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate { TokenAction(platform: platform) }
        var intents: IntentTable {
            IntentTable(
                [AppIntent<TokenMainApp>.named("pick", Pick.self) { app, input in try await app.pick(input.apps) }],
                on: TokenMainApp(platform: platform))
        }
    }

    @Test func tokensGoFromThePickerThroughTheAppGroupToTheShieldAndBack() throws {
        let instagram = "com.burbn.instagram"
        let device = try TestDevice(appName: "tokens", exhaustivity: .kinds(["shield.apply", "shield.shown", "shield.action"])) { platform, _ in
            TokenApp(platform: platform)
        }
        try device.intent("pick", ["apps": [.string(instagram)]])
        guard case .data(let stored)? = try device.value(forKey: "selection", suite: Self.group) else {
            Issue.record("no selection stored")
            return
        }
        #expect(!String(decoding: stored, as: UTF8.self).contains(instagram), "the App Group holds opaque tokens, not bundle ids")
        #expect("\(try JSONDecoder().decode(FamilyActivitySelection.self, from: stored).applicationTokens.first!)" == "ApplicationToken(…)")
        try device.send(.appOpen(app: instagram))
        let paused = ShieldConfiguration(
            title: .init(text: "Instagram is paused"), primaryButtonLabel: .init(text: "OK"), secondaryButtonLabel: .init(text: "Why?"))
        try device.advance(
            minutes: 1,
            effects: [
                .shieldApply(store: "picked", applications: [instagram], categories: .none),
                .shieldShown(app: instagram, configuration: paused, source: .extension),
            ])
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .shieldAction(app: instagram, button: .secondary, response: .defer),
                .shieldShown(app: instagram, configuration: paused, source: .extension),
            ])
    }

    /// The same pick stores the same bytes in every run (a `Set` alone encodes in the process's
    /// hash order): traces, replays and snapshots of a selection are reproducible.
    @Test func aSelectionEncodesTheSameBytesInEveryRun() throws {
        let selection = try FamilyActivityPicker(catalog: .builtIn).selection(
            applications: ["c.app", "a.app", "b.app"], categories: ["social", "games"], webDomains: ["b.com", "A.com"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(selection), as: UTF8.self)
                == #"{"applicationTokens":["YXBwOmEuYXBw","YXBwOmIuYXBw","YXBwOmMuYXBw"],"categoryTokens":["Y2F0ZWdvcnk6Z2FtZXM=","Y2F0ZWdvcnk6c29jaWFs"],"webDomainTokens":["d2ViOmEuY29t","d2ViOmIuY29t"]}"#)
    }

    @Test func aCategoryPolicyWithTokensIsTheSamePolicyByName() throws {
        let picker = FamilyActivityPicker(catalog: .builtIn)
        let selection = picker.selection(applications: ["com.burbn.instagram"], categories: ["social"])
        #expect(
            ActivityCategoryPolicy.specific(selection.categoryTokens, except: selection.applicationTokens).names
                == .specific(["social"], except: ["com.burbn.instagram"]))
        #expect(ActivityCategoryPolicy.all(except: []).names == .all(except: []))
    }
}
