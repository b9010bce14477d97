import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// `scenario.run`'s FIFO schedule takes turns: the task that waited longest runs, which sets
/// aside one that could have gone on. Those turns are the device's ordinary schedule, not
/// preemptions an exploration chose (issue 42, leftover 7b): `preemptions` counts only the
/// latter, `switches` every one.
@Suite struct FIFOTurnsTests {
    @Test func aFIFORunCountsItsTurnsAsSwitchesNotPreemptions() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = try ScenarioTests.scenario(ScenarioTests.race)
        let declared = try #require(CommandLineScenarioTests.raceSchedule)
        let fifo = try daemon.call("scenario.run", ["scenario": scenario])
        #expect(fifo["strategy"] == "fifo" && fifo["decisions"]?.intValue == declared.decisions)
        #expect(fifo["preemptions"] == 0, "FIFO preempts no one: it takes turns")
        #expect(fifo["switches"]?.intValue == declared.preemptions, "its turns, counted apart")

        let pct = try daemon.call("scenario.run", ["scenario": scenario, "strategy": "pct", "seed": 78, "depth": 3])
        let preemptions = try #require(pct["preemptions"]?.intValue)
        #expect(preemptions > 0 && pct["switches"]?.intValue == preemptions, "an exploring strategy's switches are its preemptions")
    }
}
