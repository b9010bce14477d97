import Foundation
import Testing

@testable import ExtensionSandbox

/// A shared value in a world, read and written by whoever runs.
private actor Balance: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private(set) var value = 0
    private(set) var writers: [String] = []

    init(world: World) { executor = world.makeExecutor(label: "balance") }

    func get() -> Int { value }
    func set(_ newValue: Int, by writer: String) {
        value = newValue
        writers.append(writer)
    }
}

/// A read-then-write, each access announced as the visible operation it is.
private func add(_ amount: Int, to balance: Balance, as name: String) async {
    Scheduler.yield(before: VisibleOperation("read", "balance"), process: name)
    let value = await balance.get()
    Scheduler.yield(before: VisibleOperation("write", "balance"), process: name)
    await balance.set(value + amount, by: name)
}

/// The request starts two tasks the way app code does (`Task {}`, `Task.detached`, a main-actor
/// task) and waits for them; returns the final balance and who wrote, in order.
private func startedTasksRun(seed: UInt64, strategy: (any SchedulingStrategy)? = nil) throws -> (Int, [String]) {
    let world = World(seed: seed, strategy: strategy ?? RandomStrategy(seed: seed))
    let balance = Balance(world: world)
    return try world.perform {
        let refresh = Task { await add(10, to: balance, as: "refresh") }
        let spend = Task.detached { await add(-3, to: balance, as: "spend") }
        let banner = Task { @MainActor in await add(100, to: balance, as: "banner") }
        await refresh.value
        await spend.value
        await banner.value
        return (await balance.get(), await balance.writers)
    }
}

/// Tasks simulated code starts itself are tasks of its world (docs/runtime.md, "Tasks simulated
/// code starts"): they run on the world's thread under its strategy, interleave with each other
/// at visible operations, and replay from a seed.
@Suite struct StartedTasksTests {
    @Test func tasksStartedInsideAWorldRunThereInsteadOfFailingTheRun() throws {
        let (value, writers) = try startedTasksRun(seed: 1, strategy: FIFOStrategy())
        #expect(Set(writers) == ["refresh", "spend", "banner"])
        #expect([107, 97, 110, 100, 10, -3, 7].contains(value))
    }

    @Test func theStrategyInterleavesThemAndSomeSchedulesLoseAnUpdate() throws {
        var finals = Set<Int>()
        for seed in UInt64(0)..<100 { finals.insert(try startedTasksRun(seed: seed).0) }
        #expect(finals.contains(107), "some schedules keep every update")
        #expect(finals.contains { $0 != 107 }, "some schedules lose one: the tasks really interleave")
    }

    @Test func theSameSeedReplaysTheSameInterleaving() throws {
        for seed in UInt64(0)..<30 {
            let first = try startedTasksRun(seed: seed)
            let second = try startedTasksRun(seed: seed)
            #expect(first.0 == second.0 && first.1 == second.1, "seed \(seed) replayed differently")
        }
    }

    /// A main-actor task runs on the world's own thread, never on the process's main thread,
    /// and knows it is on the main actor.
    @Test func aMainActorTaskRunsOnTheWorldsThread() throws {
        let world = World(seed: 2)
        let (sameThread, isolated) = try world.perform { () -> (Bool, Bool) in
            let worldThread = pthread_self()
            let mainActorThread = await Task { @MainActor in pthread_self() }.value
            let isolated = await MainActor.run { MainActor.assumeIsolated { true } }
            return (pthread_equal(worldThread, mainActorThread) != 0, isolated)
        }
        #expect(sameThread && isolated)
    }

    @Test func taskGroupsAndAsyncLetRunInTheWorld() throws {
        let world = World(seed: 3, strategy: RandomStrategy(seed: 3))
        let balance = Balance(world: world)
        let writers = try world.perform { () -> [String] in
            await withTaskGroup(of: Void.self) { group in
                for name in ["a", "b", "c"] { group.addTask { await add(1, to: balance, as: name) } }
            }
            async let d: Void = add(1, to: balance, as: "d")
            await d
            return await balance.writers
        }
        #expect(Set(writers) == ["a", "b", "c", "d"])
    }

    /// A task left running when the request returns goes on at the world's next drive, as an
    /// app's `Task {}` goes on after the button's action returned.
    @Test func aTaskOutlivesTheRequestThatStartedIt() throws {
        let world = World(seed: 4)
        let balance = Balance(world: world)
        _ = try world.perform {
            Task {
                await world.sleep(seconds: 5)
                await add(5, to: balance, as: "later")
            }
        }
        #expect(try world.perform { await balance.get() } == 0)
        try world.advance(to: world.clock.now + .seconds(5))
        #expect(try world.perform { await balance.get() } == 5)
    }
}

// unchecked: world-confined: appended to on the world's run loop, read after the drive
private final class SandboxEvents: @unchecked Sendable {
    var list: [SandboxEvent] = []
    var reached: [String] = []
}

/// A task an extension starts lives in its process: after the callback returns it is cut at its
/// next platform call (traced, `CancellationError`), unless its launch is in a callback again.
@Suite struct ExtensionTaskLifetimeTests {
    private func run(lifecycle: Sandbox<Int>.Lifecycle, detached: Bool) throws -> SandboxEvents {
        let world = World(seed: 5)
        let events = SandboxEvents()
        let sandbox = Sandbox<Int>(
            name: "monitor", actorName: "app.monitor", budgetBytes: 6 << 20, baselineBytes: 2 << 20,
            lifecycle: lifecycle, factory: { 0 }, onEvent: { events.list.append($0) })
        try world.perform {
            try await sandbox.run(callback: "intervalDidStart") { _ in
                let work: @Sendable () async -> Void = {
                    await world.sleep(seconds: 1)
                    do {
                        try CallbackContext.platformCall(VisibleOperation("write", "group/key"))
                        events.reached.append("wrote")
                    } catch is CancellationError {
                        events.reached.append("cancelled")
                    } catch {
                        events.reached.append("\(error)")
                    }
                }
                if detached { Task.detached(operation: work) } else { Task(operation: work) }
            }
        }
        try world.advance(to: world.clock.now + .seconds(1))
        return events
    }

    @Test(arguments: [false, true])
    func aMonitorsTaskAfterItsCallbackReturnedIsCut(detached: Bool) throws {
        let events = try run(lifecycle: .terminateAfterCallback, detached: detached)
        #expect(events.reached == ["cancelled"])
        #expect(events.list.last == .taskCancelled(reason: "ended", at: "write group/key"))
    }

    @Test func aShieldExtensionsTaskWaitsSuspendedAndIsCutToo() throws {
        let events = try run(lifecycle: .stayResident, detached: false)
        #expect(events.reached == ["cancelled"])
        #expect(events.list.last == .taskCancelled(reason: "suspended", at: "write group/key"))
    }
}
