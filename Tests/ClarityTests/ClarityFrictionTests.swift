import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// The friction path of seed 000 (task 2), step by step, every observable effect listed.
@Suite struct ClarityFrictionTests {
    private let group = "group.com.clarity.focus"
    private let instagram = "com.burbn.instagram"

    private var layerTwoShield: ShieldConfiguration {
        frictionShield(title: "Text someone instead", subtitle: "A real connection beats any feed")
    }

    /// A friction layer's shield: its texts, with the seed's two buttons.
    private func frictionShield(title: String, subtitle: String) -> ShieldConfiguration {
        ShieldConfiguration(
            title: title, subtitle: subtitle, primaryButtonLabel: "Open Clarity",
            secondaryButtonLabel: "I Choose to Continue")
    }

    /// A Clarity device where Instagram is selected and friction monitoring has started.
    private func deviceWithInstagramSelected() throws -> TestDevice {
        let device = try TestDevice(app: .clarity)
        let selection = FamilyActivitySelectionData(applicationTokens: [instagram], categoryTokens: [])
        try device.intent(
            "selectApps", ["apps": [.string(instagram)]],
            effects: [
                .storeWrite(suite: group, key: "shieldedAppsSelection", value: .data(selection.encoded)),
                .activityStart(activity: "clarity_friction"),
                .monitorIntervalStart(activity: "clarity_friction"),
                .storeWrite(suite: group, key: "frictionLevel", value: .int(0)),
            ])
        return device
    }

    private func openInstagram(_ device: TestDevice) throws {
        try device.send(
            .appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
    }

    @Test func selectAppsStoresTheSelectionAndStartsFrictionMonitoring() throws {
        let device = try deviceWithInstagramSelected()
        let activities = try device.activities()
        #expect(activities.map(\.name) == ["clarity_friction"])
        #expect(activities[0].phase == "active")
        #expect(activities[0].events.keys.sorted() == (1...5).map { "friction_layer_\($0)" })
    }

    @Test func fiveMinutesGiveTheAwarenessNotificationWithoutShield() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        try device.advance(seconds: 4 * 60 + 59)
        try device.advance(
            seconds: 1,
            effects: [
                .monitorThreshold(activity: "clarity_friction", event: "friction_layer_1"),
                .storeWrite(suite: group, key: "frictionLevel", value: .int(1)),
                .notification(title: "Awareness Nudge", body: "You've been on Instagram for 5 minutes."),
            ])
        #expect(try device.shields().effective.applications.isEmpty)
        #expect(try device.state().shieldShown == false)
    }

    @Test func tenMinutesShieldWithLayerTwoTextsAndContinueLetsTheUserIn() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        device.exhaustivity = .kinds(["shield.shown"])
        try device.advance(minutes: 5)
        device.exhaustivity = .observable
        try device.advance(
            minutes: 5,
            effects: [
                .monitorThreshold(activity: "clarity_friction", event: "friction_layer_2"),
                .storeWrite(suite: group, key: "frictionLevel", value: .int(2)),
                .shieldApply(store: "friction", applications: [instagram], categories: .none),
                .shieldShown(app: instagram, configuration: layerTwoShield, source: .extension),
                .appState(locked: false, foregroundApp: instagram, shieldShown: true),
            ])
        #expect(try device.shields().stores["friction"]?.applications == [instagram])

        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: [
                .shieldClear(store: "friction"),
                .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                .shieldAction(app: instagram, button: .secondary, response: .none),
            ])
        #expect(try device.shields().effective.applications.isEmpty)

        device.exhaustivity = .kinds(["shield.shown"])
        try device.advance(
            minutes: 5,
            effects: [
                .shieldShown(
                    app: instagram,
                    configuration: frictionShield(
                        title: "What are you looking for?", subtitle: "Or call someone instead of scrolling"),
                    source: .extension)
            ])
    }

    @Test func usageWhileShieldedDoesNotCount() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        device.exhaustivity = .off
        try device.advance(minutes: 10)
        device.exhaustivity = .observable
        try device.advance(minutes: 30)
        #expect(try device.state().usageToday[instagram] == 600)
    }

    @Test func primaryButtonClosesTheApp() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        device.exhaustivity = .off
        try device.advance(minutes: 10)
        device.exhaustivity = .observable
        try device.send(
            .shieldPress(app: instagram, button: .primary),
            effects: [
                .shieldAction(app: instagram, button: .primary, response: .close),
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
            ])
    }

    @Test func contactNameFromTheAppGroupAppearsInShieldTexts() throws {
        let device = try deviceWithInstagramSelected()
        try device.setValue(
            .string("Mom"), forKey: "prosocialContactName",
            effects: [.storeWrite(suite: group, key: "prosocialContactName", value: .string("Mom"))])
        try openInstagram(device)
        device.exhaustivity = .kinds(["notification", "shield.shown"])
        try device.advance(
            minutes: 5,
            effects: [
                .notification(
                    title: "Awareness Nudge",
                    body: "You've been on Instagram for 5 minutes. Mom would love to hear from you.")
            ])
        try device.advance(
            minutes: 5,
            effects: [
                .shieldShown(
                    app: instagram,
                    configuration: frictionShield(title: "Text Mom instead", subtitle: "A real connection beats any feed"),
                    source: .extension)
            ])
    }

    @Test func aNewDayResetsTheLayerAtFirstUse() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        device.exhaustivity = .off
        try device.advance(minutes: 10)
        try device.send(.appClose(app: instagram))
        try device.send(.lock)
        device.exhaustivity = .observable
        try device.advance(seconds: 24 * 3600, effects: [])
        #expect(try device.value(forKey: "frictionLevel") == .int(2))
        try device.send(
            .unlock,
            effects: [
                .appState(locked: false, foregroundApp: nil, shieldShown: false),
                .monitorIntervalEnd(activity: "clarity_friction"),
                .storeWrite(suite: group, key: "frictionLevel", value: .int(0)),
                .shieldClear(store: "friction"),
                .monitorIntervalStart(activity: "clarity_friction"),
                .storeWrite(suite: group, key: "frictionLevel", value: .int(0)),
            ])
        try openInstagram(device)
        device.exhaustivity = .kinds(["notification"])
        try device.advance(
            minutes: 5,
            effects: [.notification(title: "Awareness Nudge", body: "You've been on Instagram for 5 minutes.")])
    }

    @Test func anUnlistedEffectFailsTheStepWithBothLists() throws {
        let device = try deviceWithInstagramSelected()
        try openInstagram(device)
        device.exhaustivity = .off
        try device.advance(minutes: 5)
        device.exhaustivity = .observable
        let failure = #expect(throws: TestDeviceFailure.self) {
            try device.advance(minutes: 5, effects: [.shieldShown(app: instagram, configuration: layerTwoShield, source: .extension)])
        }
        #expect(failure?.expected.count == 1)
        #expect(failure?.actual.map(\.actor) == ["deviceActivity", "clarity.monitor", "clarity.monitor", "springBoard", "springBoard"])
        #expect(failure?.description.contains("first difference at #1") == true)
    }

    @Test func sameScriptOnTwoDevicesGivesByteIdenticalTraces() throws {
        func script() throws -> Data {
            let device = try deviceWithInstagramSelected()
            device.exhaustivity = .off
            try openInstagram(device)
            try device.advance(minutes: 12)
            try device.send(.shieldPress(app: instagram, button: .secondary))
            try device.advance(minutes: 20)
            try device.send(.lock)
            try device.advance(seconds: 86_400)
            try device.send(.unlock)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(device.device.traceEntries(since: nil, limit: nil))
        }
        let first = try script()
        #expect(first.count > 1000)
        #expect(first == (try script()))
    }
}
