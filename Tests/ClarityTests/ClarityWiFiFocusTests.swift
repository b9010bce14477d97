import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// The WiFi gate and focus sessions (seed 000 tasks 1d, 2d, "Enhanced Focus Sessions";
/// docs/apps/clarity.md), in process.
@Suite struct ClarityWiFiFocusTests {
    private let group = ClarityKeys.appGroup
    private let instagram = BundleID.instagram
    /// A focus session's shield: every app but the whitelist (Messages here) and Clarity itself.
    private let allButMessages = CategoryPolicy.all(except: [BundleID.messages, ClarityKeys.bundleIdentifier])

    /// What the `wifiGate` store shields (nil when it is cleared).
    private func gateApps(_ device: TestDevice) throws -> Set<String>? {
        try device.shields().stores["wifiGate"]?.applications
    }

    private func homeNetworks(_ ssids: [String]) -> StoredValue {
        .array(ssids.map(StoredValue.string))
    }

    /// The gate's shield (project wording, docs/apps/clarity.md): no continue button in strict mode.
    private func gateShield(strict: Bool) -> ShieldConfiguration {
        ShieldConfiguration(
            title: "Not on home WiFi",
            subtitle: "Doomscroll apps only unlock on your home WiFi. Everywhere else, Clarity keeps you present.",
            primaryButtonLabel: "Open Clarity", secondaryButtonLabel: strict ? nil : "I Choose to Continue")
    }

    /// The gate starts shielding the selection: the store and when it started (for the override).
    private func gateApplied(at t: Double) -> [Effect] {
        [
            .shieldApply(store: "wifiGate", applications: [instagram], categories: .none),
            .storeWrite(suite: group, key: "wifiGateAppliedAt", value: .double(t)),
        ]
    }

    /// Setup: Instagram selected and Home a home network; the gate still off.
    private func deviceWithHome() throws -> TestDevice {
        let device = try TestDevice.clarity()
        try device.withExhaustivity(.off) {
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.intent("addHomeNetwork", ["ssid": "Home"])
        }
        return device
    }

    @Test func homeNetworksKeepTheSeedsLimits() throws {
        let device = try TestDevice.clarity()
        var networks: [String] = []
        for ssid in ["Home", "Cabin", "Office"] {
            networks.append(ssid)
            let answer = try device.intent(
                "addHomeNetwork", ["ssid": .string(ssid)],
                effects: [.storeWrite(suite: group, key: "homeNetworkSSIDs", value: homeNetworks(networks))])
            #expect(answer == ["homeNetworks": .array(networks.map { .string($0) })])
        }
        #expect(try refusal { try device.intent("addHomeNetwork", ["ssid": "Fourth"]) } == "tooManyNetworks")
        #expect(try refusal { try device.intent("addHomeNetwork", ["ssid": "Home"]) } == "duplicateNetwork")
        #expect(try device.value(forKey: "homeNetworkSSIDs") == homeNetworks(["Home", "Cabin", "Office"]))
        try device.intent(
            "removeHomeNetwork", ["ssid": "Cabin"],
            effects: [.storeWrite(suite: group, key: "homeNetworkSSIDs", value: homeNetworks(["Home", "Office"]))])
        #expect(try device.value(forKey: "homeNetworkSSIDs") == homeNetworks(["Home", "Office"]))
    }

    @Test func gateShieldsAwayFromHomeAndClearsOnHomeOrWhenDisabled() throws {
        let device = try deviceWithHome()
        #expect(try gateApps(device) == nil, "the gate is off until enabled")
        try device.intent(
            "setWiFiGate", ["enabled": true],
            effects: [.storeWrite(suite: group, key: "wifiGateEnabled", value: .bool(true))] + gateApplied(at: 0))
        #expect(try device.value(forKey: "wifiGateEnabled") == .bool(true))
        #expect(try gateApps(device) == [instagram])

        try device.send(.wifiJoin(ssid: "Home"), effects: [.shieldClear(store: "wifiGate")])
        #expect(try gateApps(device) == nil)
        #expect(try device.appState()["wifiGate"]?["onHomeNetwork"] == true)

        try device.send(.wifiLeave(ssid: nil), effects: gateApplied(at: 0))
        #expect(try gateApps(device) == [instagram])
        try device.send(.wifiJoin(ssid: "Cafe"), effects: [])
        #expect(try gateApps(device) == [instagram])

        try device.intent(
            "setWiFiGate", ["enabled": false],
            effects: [
                .storeWrite(suite: group, key: "wifiGateEnabled", value: .bool(false)), .shieldClear(store: "wifiGate"),
            ])
        #expect(try gateApps(device) == nil)
    }

    @Test func theGateIsCheckedEveryThirtySeconds() throws {
        let device = try deviceWithHome()
        try device.withExhaustivity(.off) {
            try device.intent("setWiFiGate", ["enabled": true])
            try device.send(.wifiJoin(ssid: "Home"))
        }
        #expect(try gateApps(device) == nil)
        // Home is removed behind the app's back (another process writes the App Group).
        try device.setValue(
            homeNetworks([]), forKey: "homeNetworkSSIDs",
            effects: [.storeWrite(suite: group, key: "homeNetworkSSIDs", value: homeNetworks([]))])
        #expect(try gateApps(device) == nil)
        try device.advance(seconds: 29)
        try device.advance(seconds: 1, effects: gateApplied(at: 30))
        #expect(try gateApps(device) == [instagram])
    }

    @Test func clearingTheWiFiGateNeverLiftsFrictionOrFocusShields() throws {
        let device = try TestDevice.clarity(thresholdsMinutes: [1, 2, 3, 4, 5])
        try device.withExhaustivity(.off) {
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.intent("addHomeNetwork", ["ssid": "Home"])
            try device.send(.wifiJoin(ssid: "Home"))
            try device.intent("setWiFiGate", ["enabled": true])
            try device.send(.appOpen(app: instagram))
            try device.advance(seconds: 120)
        }
        #expect(try device.shields().stores["friction"]?.applications == [instagram])
        try device.intent(
            "focus.start", ["minutes": 60, "whitelist": [.string(BundleID.messages)]],
            effects: [
                .shieldApply(store: "focus", applications: [], categories: allButMessages),
                .focusMode(on: true),
            ])

        try device.send(.wifiLeave(ssid: nil), effects: gateApplied(at: 120))
        #expect(try gateApps(device) == [instagram])
        try device.send(.wifiJoin(ssid: "Home"), effects: [.shieldClear(store: "wifiGate")])
        let stores = try device.shields().stores
        #expect(stores["wifiGate"] == nil)
        #expect(stores["friction"]?.applications == [instagram])
        #expect(stores["focus"]?.applicationCategories == allButMessages)
        #expect(try device.state().shieldShown)

        try device.intent(
            "setWiFiGate", ["enabled": false],
            effects: [.storeWrite(suite: group, key: "wifiGateEnabled", value: .bool(false))])
        try device.intent("focus.end", effects: [.shieldClear(store: "focus"), .focusMode(on: false)])
        #expect(try device.shields().stores["friction"]?.applications == [instagram])
        #expect(try device.state().shieldShown, "friction still shields Instagram")
    }

    @Test(arguments: [false, true])
    func strictModeDecidesWhetherTheGateCanBeOverriddenAfterThirtySeconds(strict: Bool) throws {
        let device = try TestDevice.clarity()
        try device.withExhaustivity(.off) {
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.intent("setWiFiGate", ["enabled": true, "strictMode": .bool(strict)])
        }
        let shown: [Effect] = [
            .shieldShown(app: instagram, configuration: gateShield(strict: strict), source: .extension),
            .appState(locked: false, foregroundApp: instagram, shieldShown: true),
        ]
        try device.send(
            .appOpen(app: instagram),
            effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)] + shown)
        try device.advance(seconds: 10)
        let deferred: [Effect] = [.shieldAction(app: instagram, button: .secondary, response: .defer)] + shown
        try device.send(.shieldPress(app: instagram, button: .secondary), effects: deferred)
        #expect(try device.state().shieldShown)

        try device.advance(seconds: 25)
        try device.send(
            .shieldPress(app: instagram, button: .secondary),
            effects: strict
                ? deferred
                : [
                    .storeWrite(suite: group, key: "wifiGateOverride", value: .bool(true)),
                    .shieldClear(store: "wifiGate"),
                    .appState(locked: false, foregroundApp: instagram, shieldShown: false),
                    .shieldAction(app: instagram, button: .secondary, response: .none),
                ])
        #expect(try device.state().shieldShown == strict)
        #expect(try device.appState()["wifiGate"]?["overridden"] == .bool(!strict))
        try device.advance(seconds: 60)
        #expect(try device.state().shieldShown == strict, "the override holds until the network changes")
        if !strict {
            try device.send(
                .wifiJoin(ssid: "Elsewhere"),
                effects: [.storeRemove(suite: group, key: "wifiGateOverride")] + gateApplied(at: 95) + shown)
            #expect(try device.state().shieldShown)
        }
    }

    @Test func focusSessionShieldsAllButTheWhitelistUntilItEnds() throws {
        let device = try TestDevice.clarity()
        try device.intent(
            "focus.start", ["minutes": 25, "whitelist": [.string(BundleID.messages)]],
            effects: [.shieldApply(store: "focus", applications: [], categories: allButMessages), .focusMode(on: true)])
        #expect(try device.shields().stores["focus"]?.applicationCategories == allButMessages)
        #expect(try device.state().focusMode)
        #expect(try device.appState()["focusActive"] == true)

        try device.send(
            .appOpen(app: BundleID.tiktok),
            effects: [
                .appState(locked: false, foregroundApp: BundleID.tiktok, shieldShown: false),
                .shieldShown(
                    app: BundleID.tiktok,
                    configuration: ShieldConfiguration(
                        title: "Focus session in progress", subtitle: "TikTok isn't on your focus whitelist.",
                        primaryButtonLabel: "Open Clarity", secondaryButtonLabel: nil),
                    source: .extension),
                .appState(locked: false, foregroundApp: BundleID.tiktok, shieldShown: true),
            ])
        try device.send(
            .appOpen(app: BundleID.messages),
            effects: [.appState(locked: false, foregroundApp: BundleID.messages, shieldShown: false)])
        #expect(try refusal { try device.intent("focus.start", ["minutes": 5]) } == "focusSessionActive")

        try device.advance(minutes: 24)
        try device.advance(minutes: 1, effects: [.shieldClear(store: "focus"), .focusMode(on: false)])
        #expect(try device.shields().stores["focus"] == nil)
        let app = try device.appState()
        #expect(app["focusActive"] == false)
        #expect(app["history"]?["focusSessions"] == 1)
        #expect(app["today"]?["focusMinutes"] == 25)
    }

    @Test func notificationsDuringFocusAreSilenced() throws {
        let device = try TestDevice.clarity()
        try device.withExhaustivity(.off) {
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.intent("focus.start", ["minutes": 30, "whitelist": [.string(instagram)]])
            try device.send(.appOpen(app: instagram))
        }
        try device.advance(minutes: 5, effects: awarenessNudge(body: "You've been on Instagram for 5 minutes."))
        let notes = try device.device.notifications(since: nil)
        #expect(notes.count == 1)
        #expect(notes.first?.silenced == true)
    }
}
