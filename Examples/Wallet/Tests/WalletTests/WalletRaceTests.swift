import DeviceTesting
import Foundation
import SimulatediOS
import Testing
import WalletApp

@testable import Wallet

/// Wallet's sync against a spend at the shield, under every interleaving that matters. The
/// naive sync reads the balance, then writes it back plus what was earned: each request takes
/// 50–300 ms of virtual time (the server's latency), and a spend that reaches the server between
/// the two is overwritten (a lost update: minutes created). The fixed sync sends only what was
/// earned.
@Suite struct WalletRaceTests {
    private static let instagram = "com.burbn.instagram"

    /// Instagram locked, 30 minutes earned and synced, 20 more earned; then, with Instagram's
    /// shield up, the user spends 10 minutes at the shield while the main app syncs. After one
    /// more sync the server must hold what was earned less what was spent.
    private func spendDuringSync(_ variant: WalletSettings.Variant) throws -> Scenario {
        var config = DeviceConfig()
        config.app = ["variant": .string(variant.rawValue)]
        let instagram = Self.instagram
        let steps: [ScenarioStep] = [
            .send(.lockApps([instagram])),
            .send(.earn(30)),
            .send(.sync),
            .send(.earn(20)),
            .event(.appOpen(app: instagram)),
            .waitUntil(.shieldShown(app: instagram), within: 60),
            .parallel([[.event(.shieldPress(app: instagram, button: .secondary))], [.send(.sync)]]),
            .send(.sync),
            .expect(.that("the server holds what was earned less what was spent") { Self.ledgerBalances($0) }),
        ]
        return try Scenario("a spend during the sync", app: .wallet, start: "2026-01-05T09:00:00Z", config: config, steps: steps)
    }

    /// Whether the balance the server last answered is every minute earned less every minute
    /// spent, nothing left to sync (`status`, as the main app shows it).
    private static func ledgerBalances(_ device: DeviceObservation) -> Bool {
        guard case .dictionary(let status) = device.appState, case .int(let balance) = status["balance"],
            case .int(let earned) = status["earnedMinutes"], case .int(let spent) = status["spentMinutes"],
            case .int(0) = status["pendingMinutes"]
        else { return false }
        return balance == earned - spent
    }

    /// PCT finds the schedule where the spend reaches the server while the naive sync's GET
    /// answer is on its way back: the PUT that follows writes 50 over the server's 20 (40 is
    /// right), and the token replays exactly that schedule. It takes no preemption: the latency
    /// is the window (the sync waits for its answer; the shield action runs meanwhile), only the
    /// order in which the two branches start matters.
    @Test func exploringTheNaiveSyncFindsTheLostSpend() throws {
        let scenario = try spendDuringSync(.naive)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.message == "expected the server holds what was earned less what was spent: does not hold")
        #expect(failure.step == "steps[8]")
        #expect(failure.preemptions == 0)
        let replayed = #expect(throws: ExplorationFailed.self) { try scenario.replay(schedule: failure.schedule) }
        #expect(replayed?.reason.step == "steps[8]")
    }

    /// The fixed sync: every schedule with up to two preemptions, run to the end, passes.
    @Test func theFixedSyncPassesEverySchedule() throws {
        let scenario = try spendDuringSync(.fixed)
        var plan = ExplorationPlan(strategy: .dfs, schedules: 100_000)
        plan.preemptionBound = 2
        let report = try scenario.explore(plan)
        #expect(report.exhaustive == true)
        #expect(report.schedules > 1)
    }

    /// The same race as a scenario file (`scenarios/wallet-spend-during-sync.json`, which
    /// `clarityctl explore` sends to `wallet-clarityd`): explored here, it fails where the test's
    /// scenario does, on the balance the naive sync wrote.
    @Test func theScenarioFileExploresHereAsUnderTheDaemon() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenarios/wallet-spend-during-sync.json")
        let scenario = try Scenario(contentsOf: file, apps: [.wallet])
        #expect(scenario.expectFailure)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.message == "expected state app.balance equals 40: got 50")
        #expect(failure.step == "steps[8]")
    }
}
