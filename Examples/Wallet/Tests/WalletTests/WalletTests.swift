import DeviceTesting
import Foundation
import SimulatediOS
import Testing
import WalletApp
import WalletServer

@testable import Wallet

/// Wallet on a simulated device talking to its own server: what the main app shows, what the
/// shield does, and what the server holds.
@Suite struct WalletTests {
    private let instagram = "com.burbn.instagram"

    /// A device named `alice` (her wallet's user on the server), Instagram locked, on `servers`.
    private func device(_ variant: WalletSettings.Variant = .fixed, servers: Servers) throws -> TestDevice {
        var config = DeviceConfig()
        config.app = ["variant": .string(variant.rawValue)]
        let device = try TestDevice(app: .wallet, config: config, exhaustivity: .off, name: "alice", servers: servers)
        _ = try device.send(.lockApps([instagram]))
        return device
    }

    private func serverBalance(_ servers: Servers, of user: String = "alice") -> Int? {
        servers.existing("default", of: "wallet")?.read(WalletServer.self) { $0.balance(of: user) }
    }

    @Test(arguments: WalletSettings.Variant.allCases)
    func aSyncSendsTheMinutesEarnedToTheServer(variant: WalletSettings.Variant) throws {
        let servers = Servers()
        let device = try device(variant, servers: servers)
        _ = try device.send(.earn(30))
        let status = try device.appState(as: WalletStatus.self)
        #expect(status.pendingMinutes == 30 && status.balance == nil)
        _ = try device.send(.sync)
        #expect(try device.appState(as: WalletStatus.self).balance == 30)
        #expect(try device.appState(as: WalletStatus.self).pendingMinutes == 0)
        #expect(serverBalance(servers) == 30)
    }

    /// More than a day's minutes earned between two syncs (the phone was offline a week) go in
    /// one request, as one earning.
    @Test func aWeekOfEarningsSyncsAtOnce() throws {
        let servers = Servers()
        let device = try device(servers: servers)
        for _ in 1...7 { _ = try device.send(.earn(1_440)) }
        _ = try device.send(.sync)
        #expect(serverBalance(servers) == 7 * 1_440)
        #expect(try device.appState(as: WalletStatus.self).pendingMinutes == 0)
    }

    /// The naive sync's two requests wait out the server's latency on the virtual clock: the
    /// device's time moves on by 50–300 ms per round trip while the user waits.
    @Test func aSyncTakesTheServersLatency() throws {
        let device = try device(.naive, servers: Servers())
        _ = try device.send(.earn(30))
        let before = try device.state().t
        _ = try device.send(.sync)
        let waited = Int(((try device.state().t - before) * 1000).rounded())
        #expect((100...600).contains(waited), "two round trips of 50–300 ms each, not \(waited) ms")
    }

    /// The shield spends the unlock's price from the server and lifts itself for the day.
    @Test func theShieldSpendsFromTheServerAndUnlocksTheApp() throws {
        let servers = Servers()
        let device = try device(servers: servers)
        _ = try device.send(.earn(30))
        _ = try device.send(.sync)
        try device.send(.appOpen(app: instagram))
        #expect(try device.state().shieldShown)
        try device.send(.shieldPress(app: instagram, button: .secondary))
        #expect(serverBalance(servers) == 20)
        let status = try device.appState(as: WalletStatus.self)
        #expect(status.spentMinutes == 10 && status.balance == 20)
        #expect(try device.shields().stores["wallet"]?.applications ?? [] == [])
        #expect(try device.state().foregroundApp == instagram && !device.state().shieldShown)
    }

    /// A balance short of the price: the server refuses (409), nothing is spent, the app closes.
    @Test func aShortBalanceClosesTheApp() throws {
        let servers = Servers()
        let device = try device(servers: servers)
        try device.send(.appOpen(app: instagram))
        try device.send(.shieldPress(app: instagram, button: .secondary))
        #expect(try device.state().foregroundApp == nil)
        #expect(try device.appState(as: WalletStatus.self).spentMinutes == 0)
        #expect(try device.shields().stores["wallet"]?.applications == [instagram])
        #expect(serverBalance(servers) == 0)
    }

    /// Offline, a sync is refused (`network`) and its minutes stay pending.
    @Test func anOfflineSyncKeepsTheMinutesPending() throws {
        let device = try device(servers: Servers())
        _ = try device.send(.earn(30))
        try device.send(.networkOffline)
        #expect(throws: DeviceError.self) { try device.send(.sync) }
        #expect(try device.appState(as: WalletStatus.self).pendingMinutes == 30)
    }

    @Test func aVariantItDoesNotHaveIsRefusedNamingTheOnesItHas() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("optimistic")]
        let error = #expect(throws: DeviceError.self) { try TestDevice(app: .wallet, config: config) }
        guard case .invalidArgument(let field, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(field == "config.app.variant")
        #expect(reason.contains("one of naive, fixed"))
    }
}
