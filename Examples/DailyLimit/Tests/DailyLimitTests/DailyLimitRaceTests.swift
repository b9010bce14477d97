import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import DailyLimit

/// DailyLimit's request counter under every interleaving that matters: the last "I need it" of
/// the day is pressed at 23:59:59, the instant the day's interval ends and the monitor runs.
/// The first version shares one counter that the shield action increments (read, then write)
/// and the monitor zeroes; the fixed one gives each day a key that only the shield action writes.
@Suite struct DailyLimitRaceTests {
    private static let instagram = "com.burbn.instagram"

    /// Instagram limited to 30 minutes from 23:00: the shield shows at 23:30, the user asks for
    /// more twice, and once more at 23:59:59; a minute into the new day, at most that last
    /// request is counted (pressed as the day ended, it may count for either day).
    private func lastPressOfTheDay(countRequestsPerDay: Bool, failOnRace: Bool = false) throws -> Scenario {
        var config = DeviceConfig()
        config.app = ["countRequestsPerDay": .bool(countRequestsPerDay)]
        let instagram = Self.instagram
        let pressINeedIt = ScenarioStep.event(.shieldPress(app: instagram, button: .secondary))
        let steps: [ScenarioStep] = [
            .send(.limitApps([instagram])),
            .event(.appOpen(app: instagram)),
            .waitUntil(.shieldShown(app: instagram), within: 3600),
            pressINeedIt,
            pressINeedIt,
            .parallel([[.advance(seconds: 1799), pressINeedIt]]),
            .advance(seconds: 60),
            .expect(.that("yesterday's requests are not counted today") { (Self.requestsToday(in: $0) ?? .max) <= 1 }),
        ]
        return try Scenario(
            "the last press of the day", app: .dailyLimit, start: "2026-01-05T23:00:00Z", config: config, steps: steps,
            failOnRace: failOnRace)
    }

    /// `status`' `requestsToday`, as the main app shows it.
    private static func requestsToday(in device: DeviceObservation) -> Int? {
        guard case .dictionary(let status) = device.appState, case .int(let count) = status["requestsToday"] else { return nil }
        return count
    }

    @Test func theFirstVersionsOwnSchedulePasses() throws {
        try lastPressOfTheDay(countRequestsPerDay: false).run()
    }

    /// PCT finds the schedule where the monitor's zero lands between the shield action's read
    /// and its write; the failure tells the story and the token replays exactly it.
    @Test func exploringTheFirstVersionFindsTheLostMidnightReset() throws {
        let scenario = try lastPressOfTheDay(countRequestsPerDay: false)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.message == "expected yesterday's requests are not counted today: does not hold")
        #expect(failure.step == "steps[7]")
        #expect(failure.preemptions >= 1)
        let replayed = #expect(throws: ExplorationFailed.self) { try scenario.replay(schedule: failure.schedule) }
        #expect(replayed?.reason.step == "steps[7]")
        #expect(replayed?.description.contains("try scenario.replay(schedule: \"\(failure.schedule)\")") == true)
    }

    /// The race detector names the lost update: the shield action's write over the monitor's.
    @Test func theRaceDetectorNamesWhoOverwroteWhom() throws {
        let scenario = try lastPressOfTheDay(countRequestsPerDay: false, failOnRace: true)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.invariant == "race")
        #expect(failure.kind == "requestsToday: dailylimit.shieldAction over dailylimit.monitor")
    }

    /// The same race as a scenario file (`scenarios/dailylimit-last-press.json`, which
    /// `clarityctl explore` sends to `dailylimitd`): read and explored here, its failure names
    /// the lost update, and its token replays here as the daemon's would; a token made for
    /// another scenario is refused.
    @Test func theScenarioFileExploresHereAsUnderTheDaemon() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenarios/dailylimit-last-press.json")
        let scenario = try Scenario(contentsOf: file, apps: [.dailyLimit])
        #expect(scenario.expectFailure && scenario.failOnRace)
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.kind == "requestsToday: dailylimit.shieldAction over dailylimit.monitor")
        #expect(failure.schedule.hasPrefix("v2:\(scenario.hash):"))
        let again = #expect(throws: ExplorationFailed.self) { try scenario.replay(schedule: failure.schedule) }
        #expect(again?.reason.kind == failure.kind)
        let other = try lastPressOfTheDay(countRequestsPerDay: false)
        #expect(throws: DeviceError.self) { try other.replay(schedule: failure.schedule) }
    }

    /// The race the explorer finds in the scenario file, told as issue 42 asks: the story shows
    /// the losing write and the value it overwrote (the monitor's midnight 0), and every
    /// deviation the shrunk schedule keeps is needed — each removed in turn, the schedule passes,
    /// fails another way or cannot be replayed, or fails the same way only as the story says
    /// (with more preemptions, or a less plausible stall).
    @Test func theStoryShowsTheLosingWriteAndKeepsOnlyNeededSwitches() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenarios/dailylimit-last-press.json")
        let scenario = try Scenario(contentsOf: file, apps: [.dailyLimit])
        let failure = try scenario.exploreExpectingFailure(ExplorationPlan(strategy: .pct, schedules: 300))
        #expect(failure.causalChain.map(\.role.rawValue) == ["read", "interleaved write", "losing write"], "\(failure.story)")
        let (overwritten, losing) = (failure.causalChain[1], failure.causalChain[2])
        #expect(overwritten.actor == "dailylimit.monitor" && overwritten.value == "0")
        #expect(losing.actor == "dailylimit.shieldAction" && losing.value != nil && losing.key == overwritten.key)
        let because = try #require(failure.story.first { $0.hasPrefix("because: lost update: ") }, "\(failure.story)")
        #expect(because.contains("dailylimit.monitor wrote 0 (seq \(overwritten.seq))"))
        #expect(because.contains("dailylimit.shieldAction wrote \(losing.value ?? "?") over it (seq \(losing.seq))"))

        let parts = failure.schedule.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let deviations = parts[2].split(separator: ",").map(String.init)
        #expect(!deviations.isEmpty && parts.count == 3, "a race needs a deviation, and this one no fault: \(failure.schedule)")
        for (index, deviation) in deviations.enumerated() {
            var fewer = deviations
            fewer.remove(at: index)
            let token = "\(parts[0]):\(parts[1]):" + fewer.joined(separator: ",")
            let decision = String(deviation.prefix { $0 != "@" })
            let line = try #require(failure.story.first { $0.hasPrefix("⇄ decision \(decision):") }, "\(failure.story)")
            do {
                try scenario.replay(schedule: token)
            } catch let failed as ExplorationFailed where failed.reason.kind == failure.kind && failed.reason.step == failure.step {
                #expect(
                    line.contains("kept: without it the failure needs") || line.contains("kept: without it the failure is less plausible"),
                    "\(deviation) is not needed: \(line)")
            } catch {
                // Passes, fails another way, or diverges: needed.
            }
            #expect(line.contains(" — kept: without it "), "\(line)")
        }
    }

    /// The fixed version: every schedule with up to two preemptions, run to the end, passes —
    /// with the race detector on.
    @Test func theFixedVersionPassesEverySchedule() throws {
        let scenario = try lastPressOfTheDay(countRequestsPerDay: true, failOnRace: true)
        var plan = ExplorationPlan(strategy: .dfs, schedules: 100_000)
        plan.preemptionBound = 2
        let report = try scenario.explore(plan)
        #expect(report.exhaustive == true)
        #expect(report.schedules > 1)
    }
}
