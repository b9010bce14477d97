import ExtensionSandbox
import Foundation
import Testing

/// The bare runtime's exploration speed, for scripts/explore-bench.sh (docs/performance.md): three
/// actors' tasks doing a read-modify-write on a shared register, a fresh world per schedule, as the
/// prototype measured it (docs/runtime.md, "The prototype's figures"). Each read and write is a
/// scheduling point, as a platform call is (decisions are made only there: without them the tasks
/// would run one after the other and never lose an update). A benchmark, not a test: it runs only
/// with `CLARITYD_BENCH=1` (in a release build) and prints its figures.
@Suite struct RuntimeBenchmarkTests {
    private actor Register: WorldActor {
        nonisolated let executor: WorldActorExecutor
        private var value = 0
        init(world: World) { executor = world.makeExecutor(label: "register") }
        func get() -> Int { value }
        func set(_ newValue: Int) { value = newValue }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CLARITYD_BENCH"] == "1"))
    func bareRuntimeSchedulesPerSecond() throws {
        let schedules = 50_000
        var steps = 0
        var decisions = 0
        var lost = 0
        let started = DispatchTime.now().uptimeNanoseconds
        for seed in 0..<UInt64(schedules) {
            let world = World(seed: seed, strategy: RandomStrategy(seed: seed))
            let registers = (0..<3).map { _ in Register(world: world) }
            let final = try world.perform {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            for register in registers {
                                Scheduler.yield(before: VisibleOperation("read", "register"), process: nil)
                                let value = await register.get()
                                Scheduler.yield(before: VisibleOperation("write", "register"), process: nil)
                                await register.set(value + 1)
                            }
                        }
                    }
                }
                return await registers[0].get()
            }
            if final < 3 { lost += 1 }
            steps += world.scheduler.steps
            decisions += world.scheduler.decisions
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print(
            "bare runtime: \(schedules) schedules, \(steps / schedules) steps and \(decisions / schedules) decisions each, "
                + "\(Int(Double(schedules) / seconds)) schedules/s, \(Int(Double(steps) / seconds)) steps/s, "
                + "\(Int(Double(decisions) / seconds)) decisions/s, lost update in \(lost * 100 / schedules) %")
        #expect(lost > 0)
    }
}
