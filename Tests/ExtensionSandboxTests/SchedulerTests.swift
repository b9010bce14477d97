import Testing

@testable import ExtensionSandbox

/// A counter actor in a world, for lost-update races.
private actor Counter: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private(set) var value = 0
    private(set) var log: [String] = []

    init(world: World) { executor = world.makeExecutor(label: "counter") }

    func get() -> Int { value }
    func set(_ newValue: Int, by worker: String) {
        value = newValue
        log.append("\(worker)=\(newValue)")
    }
}

/// Two workers doing read-then-write three times each; returns the final value and the log.
private func lostUpdateRun(seed: UInt64) throws -> (Int, [String]) {
    let world = World(seed: seed, strategy: RandomStrategy(seed: seed))
    let counter = Counter(world: world)
    return try world.perform {
        async let first: Void = work(counter, "a")
        async let second: Void = work(counter, "b")
        _ = await (first, second)
        return (await counter.get(), await counter.log)
    }
}

/// Three read-then-writes, each access announced as the visible operation it is (a task runs
/// on between them: only there can another task come in).
private func work(_ counter: Counter, _ name: String) async {
    for _ in 0..<3 {
        Scheduler.yield(before: VisibleOperation("read", "counter"), process: name)
        let value = await counter.get()
        Scheduler.yield(before: VisibleOperation("write", "counter"), process: name)
        await counter.set(value + 1, by: name)
    }
}

@Suite struct SchedulerTests {
    @Test func fifoRunHasNoLostUpdate() throws {
        let world = World(seed: 1)
        let counter = Counter(world: world)
        let value = try world.perform {
            await work(counter, "a")
            await work(counter, "b")
            return await counter.get()
        }
        #expect(value == 6)
    }

    @Test func randomStrategyExploresInterleavingsThatLoseUpdates() throws {
        var finals = Set<Int>()
        for seed in UInt64(0)..<200 {
            finals.insert(try lostUpdateRun(seed: seed).0)
        }
        #expect(finals.contains(6), "some schedules keep every update")
        #expect(finals.contains { $0 < 6 }, "some schedules lose an update")
    }

    /// An endless loop of awaits is stopped by the step budget (the watchdog), and the world
    /// serves the next request as if nothing happened.
    @Test func aWorldPastItsStepBudgetIsStoppedAndStaysUsable() throws {
        let world = World(seed: 1)
        world.stepBudget = 10_000
        let counter = Counter(world: world)
        #expect(throws: WorldError.stepBudgetExceeded(steps: 10_000)) {
            try world.perform {
                while true { await counter.set(await counter.get() + 1, by: "loop") }
            }
        }
        let value = try world.perform { await counter.get() }
        #expect(value > 0)
        #expect(try world.perform { await counter.get() } == value, "nothing of the stopped loop runs later")
    }

    @Test func sameSeedReplaysIdentically() throws {
        for seed in UInt64(0)..<50 {
            let first = try lostUpdateRun(seed: seed)
            let second = try lostUpdateRun(seed: seed)
            #expect(first.0 == second.0)
            #expect(first.1 == second.1, "seed \(seed) replayed differently")
        }
    }

    @Test func requestWaitingOnNothingIsReportedAsStalled() throws {
        let world = World(seed: 4)
        #expect(throws: WorldError.stalled) {
            try world.perform {
                await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
                return 0
            }
        }
    }
}

@Suite struct VirtualClockTests {
    @Test func advanceFiresTimersInDeadlineOrderAtTheirTimes() throws {
        let world = World(seed: 0)
        let counter = Counter(world: world)
        world.clock.schedule(at: VirtualInstant(seconds: 30), label: "late") {
            await counter.set(30, by: "late")
        }
        world.clock.schedule(at: VirtualInstant(seconds: 10), label: "early") {
            await counter.set(10, by: "early")
        }
        world.clock.schedule(at: VirtualInstant(seconds: 90), label: "after") {
            await counter.set(90, by: "after")
        }
        try world.advance(to: VirtualInstant(seconds: 60))
        #expect(world.clock.now == VirtualInstant(seconds: 60))
        let log = try world.perform { await counter.log }
        #expect(log == ["early=10", "late=30"])
        #expect(world.clock.nextDeadline == VirtualInstant(seconds: 90))
    }

    @Test func cancelledTimerNeverFires() throws {
        let world = World(seed: 0)
        let counter = Counter(world: world)
        let id = world.clock.schedule(at: VirtualInstant(seconds: 5), label: "x") { await counter.set(1, by: "x") }
        world.clock.cancel(id)
        try world.advance(to: VirtualInstant(seconds: 10))
        #expect(try world.perform { await counter.get() } == 0)
    }
}
