import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

@Suite struct ClarityFrictionTests {
    private func selectInstagram(_ device: SimulatedDevice) throws {
        _ = try device.perform(intent: "selectApps", arguments: TestArguments(values: ["apps": [.string(instagram)]]))
    }

    @Test func selectAppsStoresTheSelectionAndStartsFrictionMonitoring() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        let stored = try device.storeGet(suite: nil, key: "shieldedAppsSelection")
        let selection = FamilyActivitySelectionData.decode(stored?.dataValue)
        #expect(selection == FamilyActivitySelectionData(applicationTokens: [instagram], categoryTokens: []))
        let activities = try device.activities()
        #expect(activities.map(\.name) == ["clarity_friction"])
        #expect(activities[0].phase == "active")
        #expect(activities[0].events.keys.sorted() == (1...5).map { "friction_layer_\($0)" })
    }

    @Test func fiveMinutesGiveTheAwarenessNotificationWithoutShield() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.apply(.appOpen(app: instagram))
        let atFour = try device.advance(seconds: 4 * 60 + 59)
        #expect(atFour.notifications.isEmpty)
        let atFive = try device.advance(seconds: 1)
        #expect(atFive.notifications == ["Awareness Nudge: You've been on Instagram for 5 minutes."])
        #expect(try device.storeGet(suite: nil, key: "frictionLevel") == .int(1))
        #expect(try device.shields().effective.applications.isEmpty)
        #expect(try device.state().shieldShown == false)
    }

    @Test func tenMinutesShieldWithLayerTwoTextsAndContinueLetsTheUserIn() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 5 * 60)
        let atTen = try device.advance(seconds: 5 * 60)
        #expect(
            atTen.shownShields == [
                ShieldConfiguration(
                    title: "Text someone instead", subtitle: "A real connection beats any feed",
                    primaryButtonLabel: "Open Clarity", secondaryButtonLabel: "I Choose to Continue")
            ])
        #expect(try device.shields().stores["friction"]?.applications == [instagram])
        #expect(try device.state().shieldShown)

        let pressed = try device.apply(.shieldPress(app: instagram, button: .secondary))
        #expect(pressed.first("shield.action") == .shieldAction(app: instagram, button: .secondary, response: .none))
        let state = try device.state()
        #expect(state.shieldShown == false)
        #expect(state.foregroundApp == instagram)
        #expect(try device.shields().effective.applications.isEmpty)

        let atFifteen = try device.advance(seconds: 5 * 60)
        #expect(atFifteen.shownShields.map(\.title) == ["What are you looking for?"])
    }

    @Test func usageWhileShieldedDoesNotCount() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 10 * 60)
        let later = try device.advance(seconds: 30 * 60)
        #expect(later.shownShields.isEmpty)
        #expect(try device.state().usageToday[instagram] == 600)
    }

    @Test func primaryButtonClosesTheApp() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 10 * 60)
        let pressed = try device.apply(.shieldPress(app: instagram, button: .primary))
        #expect(pressed.first("shield.action") == .shieldAction(app: instagram, button: .primary, response: .close))
        #expect(try device.state().foregroundApp == nil)
    }

    @Test func contactNameFromTheAppGroupAppearsInShieldTexts() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.storeSet(suite: nil, key: "prosocialContactName", value: .string("Mom"))
        _ = try device.apply(.appOpen(app: instagram))
        let atFive = try device.advance(seconds: 5 * 60)
        #expect(
            atFive.notifications == [
                "Awareness Nudge: You've been on Instagram for 5 minutes. Mom would love to hear from you."
            ])
        #expect(try device.advance(seconds: 5 * 60).shownShields.map(\.title) == ["Text Mom instead"])
        let config = try device.shieldConfig(app: instagram)
        #expect(config.title == "Text Mom instead")
        #expect(config.source == .extension)
    }

    @Test func aNewDayResetsTheLayerAtFirstUse() throws {
        let device = try makeClarityDevice()
        try selectInstagram(device)
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 10 * 60)
        _ = try device.apply(.appClose(app: instagram))
        _ = try device.apply(.lock)
        _ = try device.advance(seconds: 24 * 3600)
        #expect(try device.storeGet(suite: nil, key: "frictionLevel") == .int(2))
        let unlocked = try device.apply(.unlock)
        #expect(unlocked.kinds.contains("monitor.intervalStart"))
        #expect(try device.storeGet(suite: nil, key: "frictionLevel") == .int(0))
        #expect(try device.shields().stores["friction"] == nil)
        _ = try device.apply(.appOpen(app: instagram))
        #expect(try device.state().shieldShown == false)
        let five = try device.advance(seconds: 5 * 60)
        #expect(five.notifications.count == 1)
    }

    @Test func sameScriptOnTwoDevicesGivesByteIdenticalTraces() throws {
        func script() throws -> Data {
            let device = try makeClarityDevice(seed: 42)
            try selectInstagram(device)
            _ = try device.apply(.appOpen(app: instagram))
            _ = try device.advance(seconds: 12 * 60)
            _ = try device.apply(.shieldPress(app: instagram, button: .secondary))
            _ = try device.advance(seconds: 20 * 60)
            _ = try device.apply(.lock)
            _ = try device.advance(seconds: 86_400)
            _ = try device.apply(.unlock)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(device.traceEntries(since: nil, limit: nil))
        }
        let first = try script()
        #expect(first.count > 1000)
        #expect(first == (try script()))
    }
}

/// Exhaustive: every effect of reaching layer 2 while Instagram is open, in order, with its actor.
@Suite struct ClarityFrictionEffectsTests {
    @Test func layerTwoEffectsInOrder() throws {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: TestArguments(values: ["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 300)
        let outcome = try device.advance(seconds: 300)
        let lines = outcome.effects.map { "\($0.entry.actor) \($0.entry.payload.kind)" }
        #expect(
            lines == [
                "clock clock.advance",
                "deviceActivity monitor.threshold",
                "clarity.monitor extension.launch",
                "clarity.monitor extension.callback",
                "clarity.monitor store.write",
                "clarity.monitor store.read",
                "clarity.monitor store.read",
                "clarity.monitor shield.apply",
                "clarity.monitor extension.terminate",
                "clarity.shieldConfiguration extension.launch",
                "clarity.shieldConfiguration extension.callback",
                "clarity.shieldConfiguration store.read",
                "clarity.shieldConfiguration store.read",
                "springBoard shield.shown",
                "springBoard app.state",
            ])
        #expect(
            outcome.effects[4].entry.payload
                == .storeWrite(suite: "group.com.clarity.focus", key: "frictionLevel", value: .int(2)))
        #expect(
            outcome.effects[6].entry.payload
                == .storeRead(suite: "group.com.clarity.focus", key: "prosocialEnabled", bytes: 1))
        #expect(
            outcome.effects[7].entry.payload
                == .shieldApply(store: "friction", applications: [instagram], categories: .none))
        #expect(outcome.effects.allSatisfy { $0.entry.time.seconds == ($0.entry.payload.kind == "clock.advance" ? 300 : 600) })
    }
}
