import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// ScrollKitty's intents (docs/apps/scrollkitty.md, "Intents"): the HP split, each setting, and
/// every refusal.
@Suite struct ScrollKittyIntentTests {
    /// 100 HP in whole HP, `100 div n` each, the first `100 mod n` apps one more.
    @Test(arguments: [
        (1, [100]), (3, [34, 33, 33]), (7, [15, 15, 14, 14, 14, 14, 14]), (10, Array(repeating: 10, count: 10)),
    ])
    func selectAppsSplitsOneHundredHP(count: Int, shares: [Int]) throws {
        let apps = Array(App.ten.prefix(count))
        let device = try TestDevice.scrollKitty(selecting: apps, shares: shares)
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps.map(\.app) == apps)
        #expect(state.apps.map(\.hp) == shares)
        #expect(state.apps.map(\.maxHP) == shares)
        #expect(state.totalHP == 100)
        #expect(state.apps.allSatisfy { $0.shielded })
        #expect(state.apps.allSatisfy { $0.cooldownEndsAt == nil })
    }

    @Test func theDashboardNamesEachAppAndItsToken() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram, App.tiktok], shares: [50, 50])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.apps.map(\.name) == ["Instagram", "TikTok"])
        // base64 of the token's data, the bundle id's UTF-8 bytes: stable, one per app.
        #expect(state.apps.map(\.tokenId) == ["Y29tLmJ1cmJuLmluc3RhZ3JhbQ==", "Y29tLnpoaWxpYW9hcHAubXVzaWNhbGx5"])
        #expect(state.isDead == false)
        #expect(state.shieldFrequencyMinutes == 15)
        #expect(state.focusWindow == FocusWindow.allDay)
        #expect(state.inFocusWindow)
        #expect(state.dailyLimitHours == nil)
        #expect(state.notificationsAuthorized)
    }

    @Test(arguments: [0, 11])
    func selectAppsRefusesNoneOrMoreThanTen(count: Int) throws {
        let device = try TestDevice(app: .scrollKitty)
        let apps = (0..<count).map { JSONValue.string("com.example.app\($0)") }
        #expect(throws: DeviceError.invalidArgument(field: "args.apps", reason: "1 to 10 bundle ids")) {
            try device.intent("selectApps", ["apps": .array(apps)])
        }
        #expect(try device.value(forKey: "selectedApps", suite: group) == nil)
    }

    @Test func selectAppsRefusesAnAppTwice() throws {
        let device = try TestDevice(app: .scrollKitty)
        #expect(throws: DeviceError.invalidArgument(field: "args.apps", reason: "an app may be selected only once")) {
            try device.intent("selectApps", ["apps": [.string(App.instagram), .string(App.instagram)]])
        }
    }

    @Test func selectAppsIsRefusedOnceTheCatIsDead() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try device.writeHealth([(App.instagram, 0, 100)])
        #expect(
            throws: DeviceError.refused(reason: "catDead", message: "Scroll Kitty is dead: every app stays hard locked")
        ) {
            try device.intent("selectApps", ["apps": [.string(App.tiktok)]])
        }
        #expect(try device.hps() == [0])
    }

    @Test func setShieldFrequencyStoresTheCooldown() throws {
        let device = try TestDevice(app: .scrollKitty)
        try device.intent("setShieldFrequency", ["minutes": 30], effects: [
            .storeWrite(suite: group, key: "shieldFrequencyMinutes", value: .int(30))
        ])
        #expect(try device.appState(as: ScrollKittyState.self).shieldFrequencyMinutes == 30)
    }

    @Test(arguments: [9, 61])
    func setShieldFrequencyRefusesOutsideTenToSixty(minutes: Int) throws {
        let device = try TestDevice(app: .scrollKitty)
        #expect(throws: DeviceError.invalidArgument(field: "args.minutes", reason: "10 to 60 minutes")) {
            try device.intent("setShieldFrequency", ["minutes": .int(minutes)])
        }
    }

    @Test func setDailyLimitIsStoredAndLeavesHPAlone() throws {
        let device = try TestDevice.scrollKitty(selecting: [App.instagram], shares: [100])
        try device.intent("setDailyLimit", ["hours": 5], effects: [
            .storeWrite(suite: group, key: "dailyLimitHours", value: .int(5))
        ])
        let state = try device.appState(as: ScrollKittyState.self)
        #expect(state.dailyLimitHours == 5)
        #expect(state.totalHP == 100)
    }

    @Test(arguments: [2, 9])
    func setDailyLimitRefusesOutsideThreeToEight(hours: Int) throws {
        let device = try TestDevice(app: .scrollKitty)
        #expect(throws: DeviceError.invalidArgument(field: "args.hours", reason: "3 to 8 hours")) {
            try device.intent("setDailyLimit", ["hours": .int(hours)])
        }
    }

    @Test(arguments: [
        (["startHour": 24, "endHour": 2, "weekdays": [2]], "args.startHour", "0 to 23"),
        (["startHour": 22, "endHour": -1, "weekdays": [2]], "args.endHour", "0 to 23"),
        (["startHour": 22, "endHour": 2, "weekdays": []], "args.weekdays", "at least one weekday (1 = Sunday … 7)"),
        (["startHour": 22, "endHour": 2, "weekdays": [2, 8]], "args.weekdays[1]", "1 (Sunday) to 7 (Saturday)"),
        (["startHour": 22, "endHour": 2, "weekdays": [0]], "args.weekdays[0]", "1 (Sunday) to 7 (Saturday)"),
    ] as [(JSONValue, String, String)])
    func setFocusWindowRefusesOutOfRange(args: JSONValue, field: String, reason: String) throws {
        let device = try TestDevice(app: .scrollKitty)
        #expect(throws: DeviceError.invalidArgument(field: field, reason: reason)) {
            try device.intent("setFocusWindow", args)
        }
        #expect(try device.value(forKey: "focusWindow", suite: group) == nil)
    }
}
