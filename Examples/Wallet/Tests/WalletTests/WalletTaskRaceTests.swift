import DeviceTesting
import Foundation
import SimulatediOS
import Testing
import WalletApp
import WalletServer

@testable import Wallet

/// Two of the main app's own tasks racing: each finished workout starts a sync with `Task {}`,
/// as SwiftUI code does, and returns at once. A second workout finished while the first sync's
/// request is out puts two syncs in flight together (docs/runtime.md, "Tasks simulated code
/// starts": before issue 41 the first `Task {}` failed the run with `jobEscaped`).
@Suite struct WalletTaskRaceTests {
    /// Two workouts, 10 and 5 minutes, one after the other; then time for the syncs to end.
    /// The server must hold the 15 minutes earned, and nothing be left pending.
    private func twoWorkouts(_ variant: WalletSettings.Variant) throws -> Scenario {
        var config = DeviceConfig()
        config.app = ["variant": .string(variant.rawValue)]
        let steps: [ScenarioStep] = [
            .send(.finishWorkout(10)),
            .expect(.state(path: "app.pendingMinutes", .equals(.int(10)))),
            .send(.finishWorkout(5)),
            .advance(seconds: 5),
            .expect(.state(path: "app.pendingMinutes", .equals(.int(0)))),
            .expect(.state(path: "app.balance", .equals(.int(15)))),
        ]
        return try Scenario("two workouts", app: .wallet, start: "2026-01-05T09:00:00Z", config: config, steps: steps)
    }

    /// The naive app's two sync tasks each send what was pending when they started: the first
    /// workout's 10 minutes are sent twice (or a balance overwritten), and the pending count goes
    /// below zero. The token replays the failing schedule.
    @Test func twoSyncTasksInFlightLoseTheLedger() throws {
        let scenario = try twoWorkouts(.naive)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.step == "steps[4]")
        #expect(failure.message.hasPrefix("expected state app.pendingMinutes equals 0: got -"), "\(failure.message)")
        let replayed = #expect(throws: ExplorationFailed.self) { try scenario.replay(schedule: failure.schedule) }
        #expect(replayed?.reason.step == "steps[4]")
    }

    /// The same race as a scenario file (`scenarios/wallet-two-workouts.json`, which
    /// `clarityctl explore` sends to `wallet-clarityd`): it fails on the pending count.
    @Test func theScenarioFileFindsTheTwoSyncs() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenarios/wallet-two-workouts.json")
        let scenario = try Scenario(contentsOf: file, apps: [.wallet])
        #expect(scenario.expectFailure)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.step == "steps[3]")
        #expect(failure.message.hasPrefix("expected state app.pendingMinutes equals 0: got -"), "\(failure.message)")
    }

    /// The fixed app runs one background sync at a time: every schedule with up to two
    /// preemptions ends with the server holding 15 and nothing pending.
    @Test func oneBackgroundSyncAtATimePassesEverySchedule() throws {
        let scenario = try twoWorkouts(.fixed)
        var plan = ExplorationPlan(strategy: .dfs, schedules: 100_000)
        plan.preemptionBound = 2
        let report = try scenario.explore(plan)
        #expect(report.exhaustive == true)
        #expect(report.schedules > 1)
    }

    /// A workout's sync task lives in the app's process: the app terminated while the sync's
    /// request is out, the answer comes to nobody. The task is cut at its next platform call
    /// (traced `task.cancelled`, reason `terminated`, under the main app): the server counted
    /// the 10 minutes, the phone still holds them pending.
    @Test func aSyncTaskDiesWithTheAppsProcess() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string(WalletSettings.Variant.fixed.rawValue)]
        let servers = Servers()
        let device = try TestDevice(app: .wallet, config: config, exhaustivity: .off, name: "alice", servers: servers)
        _ = try device.send(.finishWorkout(10))
        try device.send(.appTerminate(app: WalletKeys.bundleIdentifier))
        try device.advance(seconds: 5)
        let cut = device.device.traceEntries(since: nil, limit: nil, kinds: ["task.cancelled"]).map(\.entry)
        #expect(cut.map(\.actor) == ["wallet.app"])
        guard case .taskCancelled(_, let reason)? = cut.first?.payload else { return #expect(Bool(false), "no cut: \(cut)") }
        #expect(reason == "terminated")
        #expect(servers.existing("default", of: "wallet")?.read(WalletServer.self) { $0.balance(of: "alice") } == 10)
        #expect(try device.device.storeGet(suite: nil, key: WalletKeys.pendingMinutes) == .int(10))
    }
}
