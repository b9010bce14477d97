import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// The seed's key, `base64(JSONEncoder().encode(token))`, against the platform quirk
/// `unstableTokens` (FB18061981: token data changing): the main app stores HP under its encoding
/// of the token, the shield extension looks the app up under its own, and finds nothing.
@Suite struct ScrollKittyTokenTests {
    @Test func withUnstableTokensTheShieldFindsNoHPAndNoContinue() throws {
        var config = DeviceConfig()
        config.quirks = ["unstableTokens": true]
        let device = try TestDevice(app: .scrollKitty, config: config, exhaustivity: .kinds(["shield.shown", "shield.action"]))
        try device.intent("selectApps", ["apps": [.string(App.instagram), .string(App.tiktok)]])
        let stored = try device.appState(as: ScrollKittyState.self)
        #expect(stored.apps.map(\.hp) == [50, 50], "the main app reads back its own keys")
        #expect(stored.apps[0].tokenId != tokenId(of: App.instagram), "its encoding is the main app's own")
        try device.send(
            .appOpen(app: App.instagram),
            effects: [
                .shieldShown(
                    app: App.instagram, configuration: aliveShield("Instagram: 0/0 HP | Total: 100 HP", canContinue: false),
                    source: .extension)
            ])
    }

    @Test func withoutTheQuirkEveryProcessEncodesTheSameKey() throws {
        let device = try TestDevice(app: .scrollKitty, exhaustivity: .kinds(["shield.shown"]))
        try device.intent("selectApps", ["apps": [.string(App.instagram), .string(App.tiktok)]])
        #expect(try device.appState(as: ScrollKittyState.self).apps[0].tokenId == "Y29tLmJ1cmJuLmluc3RhZ3JhbQ==")
        try device.send(
            .appOpen(app: App.instagram),
            effects: [.shieldShown(app: App.instagram, configuration: aliveShield("Instagram: 50/50 HP | Total: 100 HP"), source: .extension)])
    }
}
