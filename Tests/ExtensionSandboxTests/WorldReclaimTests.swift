import Testing

@testable import ExtensionSandbox

/// Stops the world at one decision, as `dfs`'s sleep sets stop a schedule that repeats one
/// already run.
private struct StopAtDecision: SchedulingStrategy {
    let decision: Int
    var name: String { "stop" }
    var stopReason: String? { "stopped at decision \(decision)" }

    mutating func pickNext(_ ready: ReadyTasks) -> Int {
        ready.decision == decision ? -1 : ready.nonPreemptive
    }
}

/// Something a task holds: freed only when every task holding it has ended.
private final class Canary: Sendable {}

private actor Store: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private(set) var writes = 0

    init(world: World) { executor = world.makeExecutor(label: "store") }

    func write() { writes += 1 }
}

/// Writes `times` times, each a platform call (a scheduling point) and a hop to the store.
private func writer(_ store: Store, holding canary: Canary, times: Int) async throws {
    for _ in 0..<times {
        try CallbackContext.platformCall(VisibleOperation("write", "store"))
        await store.write()
    }
    withExtendedLifetime(canary) {}
}

/// A world stopped mid-run leaves tasks behind: cut at a decision, or waiting on its clock. They
/// hold what their frames hold (on a device: its actors, and through them the world), so until
/// they end nothing of it is freed — `dfs` leaked a device for each schedule it pruned (issue
/// 38). ``World/reclaim()`` ends them.
@Suite struct WorldReclaimTests {
    @Test func aStoppedWorldsTasksEndWhenItIsReclaimed() throws {
        let world = World(seed: 1, strategy: StopAtDecision(decision: 3))
        let store = Store(world: world)
        weak var cut: Canary?
        weak var sleeping: Canary?
        do {
            let writing = Canary()
            let waiting = Canary()
            cut = writing
            sleeping = waiting
            #expect(throws: WorldError.diverged("stopped at decision 3")) {
                try world.perform {
                    async let first: Void = writer(store, holding: writing, times: 5)
                    async let second: Void = writer(store, holding: writing, times: 5)
                    async let third: Void = {
                        await world.sleep(seconds: 60)
                        withExtendedLifetime(waiting) {}
                    }()
                    _ = try await (first, second, third)
                }
            }
        }
        #expect(world.scheduler.hasStrandedTasks)
        #expect(cut != nil, "the writers were cut mid-run: they still hold what they held")
        #expect(sleeping != nil, "the sleeper waits on a timer that never fired")

        world.reclaim()

        #expect(cut == nil, "the cut writers ended at their next platform call")
        #expect(sleeping == nil, "the sleeper's timer fired, and it ended")
        #expect(!world.scheduler.hasStrandedTasks)
        #expect(world.clock.nextDeadline == nil, "a reclaimed world sets no new timer")
    }

    /// Reclaiming does nothing to a world whose every drive finished: its state is what its
    /// runs left, and its timers stay set.
    @Test func aWorldThatFinishedHasNothingToReclaim() throws {
        let world = World(seed: 1)
        let store = Store(world: world)
        try world.perform { try await writer(store, holding: Canary(), times: 3) }
        world.clock.schedule(at: world.clock.now + .seconds(60), label: "later") { await store.write() }
        world.reclaim()
        #expect(world.clock.nextDeadline != nil)
        #expect(try world.perform { await store.writes } == 3)
    }
}
