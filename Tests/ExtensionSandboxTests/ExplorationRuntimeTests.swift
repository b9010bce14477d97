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

/// An actor the writers pass through between their visible operations: hops that are an
/// implementation detail, as the optimiser may add or remove them.
private actor Detour: WorldActor {
    nonisolated let executor: WorldActorExecutor
    init(world: World) { executor = world.makeExecutor(label: "detour") }
    func pass() {}
}

/// Three tasks doing one read-modify-write each; returns the final value, the writers' order,
/// the schedule recorded and the decisions. With `detours`, each writer makes that many extra
/// actor hops between its read and its write.
private func threeWriters(_ strategy: any SchedulingStrategy, detours: Int = 0) throws -> (
    value: Int, writers: [String], choices: [Int], decisions: [Decision]
) {
    let world = World(seed: 0, strategy: strategy)
    world.scheduler.recordsChoices = true
    let register = Register(world: world)
    let detour = Detour(world: world)
    let (value, writers) = try world.perform {
        async let a: Void = increment(register, "a", detour: detour, detours: detours)
        async let b: Void = increment(register, "b", detour: detour, detours: detours)
        async let c: Void = increment(register, "c", detour: detour, detours: detours)
        _ = await (a, b, c)
        return (await register.get(), await register.writers)
    }
    return (value, writers, world.scheduler.choices, world.scheduler.decisionLog)
}

/// A read and a write of the register, each announced as the visible operation it is.
private func increment(_ register: Register, _ name: String, detour: Detour? = nil, detours: Int = 0) async {
    Scheduler.yield(before: VisibleOperation("read", "register"), process: name)
    let value = await register.get()
    for _ in 0..<detours { await detour?.pass() }
    Scheduler.yield(before: VisibleOperation("write", "register"), process: name)
    await register.set(value + 1, by: name)
}

@Suite struct ExplorationRuntimeTests {
    /// A strategy sees the ready tasks, numbered in the order seen, and what each announced.
    @Test func aStrategySeesTasksAndTheOperationsTheyAnnounced() throws {
        final class Seen: @unchecked Sendable {
            var tasks = Set<Int>()
            var announced = Set<String>()
        }
        struct Watching: SchedulingStrategy {
            let seen: Seen
            var name: String { "watching" }
            func pickNext(_ ready: ReadyTasks) -> Int {
                for index in 0..<ready.count {
                    seen.tasks.insert(ready.task(at: index))
                    if let operation = ready.operation(at: index), let process = ready.process(at: index) {
                        seen.announced.insert("\(process) \(operation)")
                    }
                }
                return ready.count - 1
            }
        }
        let seen = Seen()
        _ = try threeWriters(Watching(seen: seen))
        let possible = Set(["a", "b", "c"].flatMap { ["\($0) read register", "\($0) write register"] })
        #expect(seen.announced.isSubset(of: possible) && seen.announced.count >= 3, "\(seen.announced)")
        #expect(seen.tasks.count >= 3, "the three child tasks are told apart: \(seen.tasks)")
        #expect(!seen.tasks.contains(0))
    }

    /// Decisions are made only at visible operations: hops between them, which the optimiser
    /// may add or remove, change neither how many decisions there are nor what they choose between.
    @Test func hopsBetweenVisibleOperationsMakeNoDecisions() throws {
        for strategy in [FIFOStrategy() as any SchedulingStrategy, RandomStrategy(seed: 3), NonPreemptiveStrategy()] {
            let plain = try threeWriters(strategy)
            let detoured = try threeWriters(strategy, detours: 5)
            #expect(plain.choices == detoured.choices, "\(strategy.name)")
            #expect(plain.decisions.map(\.candidates.count) == detoured.decisions.map(\.candidates.count))
            #expect(plain.writers == detoured.writers && plain.value == detoured.value)
        }
    }

    /// Non-preemptive, each task runs until it waits or ends: no update is lost, and no decision
    /// is a preemption.
    @Test func theNonPreemptiveScheduleLosesNothing() throws {
        let run = try threeWriters(NonPreemptiveStrategy())
        #expect(run.value == 3)
        #expect(run.writers == ["a", "b", "c"])
        #expect(run.decisions.allSatisfy { !$0.isPreemption })
        #expect(run.decisions.allSatisfy { !$0.deviates })
    }

    /// Every decision is recorded, and the recorded schedule replays the run exactly under
    /// ReplayStrategy, whichever strategy made it.
    @Test func aRecordedScheduleReplaysTheRun() throws {
        for seed in UInt64(0)..<40 {
            for strategy in [RandomStrategy(seed: seed) as any SchedulingStrategy,
                PCTStrategy(seed: seed, depth: 3, expectedDecisions: 12)] {
                let first = try threeWriters(strategy)
                #expect(!first.choices.isEmpty)
                let replay = try threeWriters(ReplayStrategy(tasks: first.choices))
                #expect(replay.value == first.value && replay.writers == first.writers, "seed \(seed) \(strategy.name)")
                #expect(replay.choices == first.choices)
                let deviations = first.decisions.filter(\.deviates).map { ScheduleDeviation(decision: $0.index, task: $0.chosen) }
                let fromDeviations = try threeWriters(ReplayStrategy(deviations: deviations))
                #expect(fromDeviations.choices == first.choices, "the deviations alone replay it")
            }
        }
    }

    @Test func fifoLetsReadyTasksTakeTurnsAndLosesUpdates() throws {
        let run = try threeWriters(FIFOStrategy())
        #expect(run.decisions.contains { $0.isPreemption })
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

    /// A replay whose schedule picks a task that is not ready stops there and says so; it never
    /// runs something else in its place.
    @Test func aReplayThatMeetsAnotherSituationStopsWithADivergenceReport() throws {
        let world = World(seed: 0, strategy: ReplayStrategy(deviations: [ScheduleDeviation(decision: 0, task: 7)]))
        let register = Register(world: world)
        do {
            _ = try world.perform {
                async let a: Void = increment(register, "a")
                async let b: Void = increment(register, "b")
                _ = await (a, b)
            }
            Issue.record("the replay went on")
        } catch let error as WorldError {
            guard case .diverged(let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("diverged at decision 0: the schedule runs task 7 there, but the ready tasks are task"))
        }
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
