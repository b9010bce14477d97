import Foundation
import Testing

@testable import ExtensionSandbox

/// A shared register for lost-update races, with the order of its writes.
private actor Register: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private(set) var value = 0
    private(set) var writers: [String] = []

    init(world: World) { executor = world.makeExecutor(label: "register") }

    func get() -> Int { value }
    func set(_ newValue: Int, by writer: String) {
        value = newValue
        writers.append(writer)
    }
}

/// Three tasks doing one read-modify-write each; returns the final value, the writers' order and
/// the schedule recorded.
private func threeWriters(_ strategy: any SchedulingStrategy) throws -> (value: Int, writers: [String], choices: [Int]) {
    let world = World(seed: 0, strategy: strategy)
    world.scheduler.recordsChoices = true
    let register = Register(world: world)
    let (value, writers) = try world.perform {
        async let a: Void = increment(register, "a")
        async let b: Void = increment(register, "b")
        async let c: Void = increment(register, "c")
        _ = await (a, b, c)
        return (await register.get(), await register.writers)
    }
    return (value, writers, world.scheduler.choices)
}

private func increment(_ register: Register, _ name: String) async {
    let value = await register.get()
    await register.set(value + 1, by: name)
}

@Suite struct ExplorationRuntimeTests {
    /// A strategy sees each ready job's task and actor; tasks are numbered in the order seen.
    @Test func aStrategySeesTasksAndActors() throws {
        final class Seen: @unchecked Sendable { var tasks = Set<Int>(); var actors = Set<String>() }
        struct Watching: SchedulingStrategy {
            let seen: Seen
            var name: String { "watching" }
            func pickNext(_ ready: ReadyJobs) -> Int {
                for index in 0..<ready.count {
                    seen.tasks.insert(ready.task(at: index))
                    if let actor = ready.actor(at: index) { seen.actors.insert(actor) }
                }
                return ready.count - 1
            }
        }
        let seen = Seen()
        _ = try threeWriters(Watching(seen: seen))
        #expect(seen.actors == ["register"])
        #expect(seen.tasks.count >= 3, "the three child tasks are told apart: \(seen.tasks)")
        #expect(!seen.tasks.contains(0))
    }

    /// Every decision is recorded, and the recorded schedule replays the run exactly under
    /// ReplayStrategy, whichever strategy made it.
    @Test func aRecordedScheduleReplaysTheRun() throws {
        for seed in UInt64(0)..<40 {
            for strategy in [RandomStrategy(seed: seed) as any SchedulingStrategy,
                PCTStrategy(seed: seed, depth: 3, expectedDecisions: 12)] {
                let first = try threeWriters(strategy)
                #expect(!first.choices.isEmpty)
                let replay = try threeWriters(ReplayStrategy(choices: first.choices))
                #expect(replay.value == first.value && replay.writers == first.writers, "seed \(seed) \(strategy.name)")
                #expect(replay.choices == first.choices)
            }
        }
    }

    @Test func fifoLetsReadyTasksTakeTurnsAndLosesUpdates() throws {
        let run = try threeWriters(FIFOStrategy())
        #expect(run.choices.allSatisfy { $0 == 0 })
        #expect(run.value == 1, "round robin: all three read 0 before anyone writes")
        #expect(run.writers == ["a", "b", "c"])
        #expect(try threeWriters(FIFOStrategy()).writers == run.writers)
    }

    /// PCT at depth 1 runs one task at a time (highest priority first): no update is lost, and
    /// the order of the tasks depends on the seed.
    @Test func pctAtDepthOneRunsEachTaskToCompletion() throws {
        var orders = Set<[String]>()
        for seed in UInt64(0)..<30 {
            let run = try threeWriters(PCTStrategy(seed: seed, depth: 1, expectedDecisions: 12))
            #expect(run.value == 3, "seed \(seed)")
            orders.insert(run.writers)
            #expect(try threeWriters(PCTStrategy(seed: seed, depth: 1, expectedDecisions: 12)).writers == run.writers)
        }
        #expect(orders.count > 1)
    }

    /// At depth 2 one priority change point lets another task in between a read and its write.
    @Test func pctAtDepthTwoFindsTheLostUpdate() throws {
        let lost = (UInt64(0)..<100).filter { seed in
            (try? threeWriters(PCTStrategy(seed: seed, depth: 2, expectedDecisions: 6)).value) ?? 3 < 3
        }
        #expect(!lost.isEmpty)
    }

    @Test func aReplayThatLeavesTheRecordedPathCountsItsDivergences() throws {
        let world = World(seed: 0, strategy: ReplayStrategy(choices: [7, 7, 7]))
        let register = Register(world: world)
        _ = try world.perform {
            async let a: Void = increment(register, "a")
            async let b: Void = increment(register, "b")
            _ = await (a, b)
        }
        let replay = try #require(world.scheduler.strategy as? ReplayStrategy)
        #expect(replay.divergences > 0)
    }

    /// `Task.sleep` inside a world waits on the real clock. Swift 6.3's sleep bypasses the
    /// runtime's enqueue hooks (docs/runtime.md), so the request is reported stalled, and the
    /// wake-up, which arrives from a timer thread, is reported by the next run as foreign.
    @Test func taskSleepInsideAWorldIsReported() throws {
        let world = World(seed: 0)
        #expect(throws: WorldError.stalled) {
            try world.perform {
                try await Task.sleep(nanoseconds: 1)
                return 0
            }
        }
        while world.scheduler.foreignEnqueues == 0 { sched_yield() }
        #expect(throws: WorldError.foreignEnqueue(count: 1)) { try world.perform { 1 } }
    }

    /// A job enqueued from another thread while the world is idle is reported by the next run,
    /// not run silently.
    @Test func aForeignEnqueueWhileIdleIsReportedByTheNextRun() throws {
        let world = World(seed: 0)
        let register = Register(world: world)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Task(executorPreference: world.scheduler) { await register.set(9, by: "foreign") }
            done.signal()
        }
        done.wait()
        #expect(throws: WorldError.foreignEnqueue(count: 1)) { try world.perform { await register.get() } }
        #expect(try world.perform { await register.get() } == 9, "and the world goes on")
    }

    /// Timers due at the same instant fire together: under FIFO their tasks take turns.
    @Test func timersDueAtOneInstantFireTogether() throws {
        let world = World(seed: 0)
        let register = Register(world: world)
        for name in ["x", "y"] {
            world.clock.schedule(at: VirtualInstant(seconds: 5), label: name) { await increment(register, name) }
        }
        try world.advance(to: VirtualInstant(seconds: 10))
        #expect(try world.perform { await register.get() } == 1, "both read before either wrote")
    }

    /// A world task may wait on virtual time when the world lets time pass.
    @Test func aTaskSleepsOnVirtualTime() throws {
        let world = World(seed: 0)
        let register = Register(world: world)
        let value = try world.perform(lettingTimePass: true) {
            async let late: Void = {
                await world.sleep(seconds: 30)
                await register.set(2, by: "late")
            }()
            await world.sleep(seconds: 10)
            await register.set(1, by: "early")
            await late
            return await register.writers
        }
        #expect(value == ["early", "late"])
        #expect(world.clock.now == VirtualInstant(seconds: 30))
        #expect(throws: WorldError.stalled) {
            try world.perform { await world.sleep(seconds: 1) }
        }
    }
}
