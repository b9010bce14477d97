import Testing

@testable import ExtensionSandbox

private final class Events: @unchecked Sendable {
    var list: [SandboxEvent] = []
}

private struct Probe: Sendable {
    let id: Int
}

private final class Factory: @unchecked Sendable {
    var made = 0
    func make() -> Probe {
        made += 1
        return Probe(id: made)
    }
}

@Suite struct SandboxTests {
    private func makeSandbox(budget: Int = 6 << 20, lifecycle: Sandbox<Probe>.Lifecycle = .stayResident)
        -> (Sandbox<Probe>, Events)
    {
        let events = Events()
        let factory = Factory()
        let sandbox = Sandbox<Probe>(
            name: "monitor", actorName: "app.monitor", budgetBytes: budget, baselineBytes: 2 << 20,
            lifecycle: lifecycle, factory: { factory.make() }, onEvent: { events.list.append($0) })
        return (sandbox, events)
    }

    @Test func launchesColdOnDemandAndStaysResident() throws {
        let world = World(seed: 0)
        let (sandbox, events) = makeSandbox()
        let ids = try world.perform {
            let first = try await sandbox.run(callback: "a") { $0.id }
            let second = try await sandbox.run(callback: "b") { $0.id }
            return [first, second]
        }
        #expect(ids == [1, 1])
        #expect(sandbox.launches == 1)
        #expect(sandbox.state == .idle)
        #expect(events.list == [.launch(baselineBytes: 2 << 20), .callback(name: "a"), .callback(name: "b")])
    }

    @Test func monitorLifecycleGivesAFreshInstanceEachCallback() throws {
        let world = World(seed: 0)
        let (sandbox, _) = makeSandbox(lifecycle: .terminateAfterCallback)
        let ids = try world.perform {
            [try await sandbox.run(callback: "a") { $0.id }, try await sandbox.run(callback: "b") { $0.id }]
        }
        #expect(ids == [1, 2])
        #expect(sandbox.launches == 2)
        #expect(sandbox.state == .notRunning)
    }

    @Test func chargesOverBudgetJetsamAndCutTheCallback() throws {
        let world = World(seed: 0)
        let (sandbox, events) = makeSandbox(budget: 3 << 20)
        let reachedAfterCharge = try world.perform { () -> Bool in
            do {
                return try await sandbox.run(callback: "big") { _ in
                    try CallbackContext.current?.charge(bytes: 2 << 20)
                    return true
                }
            } catch is Jetsam {
                return false
            }
        }
        #expect(reachedAfterCharge == false)
        #expect(sandbox.jetsams == 1)
        #expect(sandbox.state == .notRunning)
        #expect(sandbox.peakBytes == 4 << 20)
        #expect(events.list.last == .jetsam(usedBytes: 4 << 20, budgetBytes: 3 << 20))
        let relaunched = try world.perform { try await sandbox.run(callback: "again") { $0.id } }
        #expect(relaunched == 2)
        #expect(sandbox.launches == 2)
    }

    @Test func callbackChargesAreReleasedWhenTheCallbackReturns() throws {
        let world = World(seed: 0)
        let (sandbox, _) = makeSandbox(budget: 3 << 20)
        try world.perform {
            for _ in 0..<3 {
                try await sandbox.run(callback: "read") { _ in try CallbackContext.current?.charge(bytes: 900 << 10) }
            }
        }
        #expect(sandbox.jetsams == 0)
        #expect(sandbox.usedBytes == 2 << 20)
    }

    @Test func retainedBytesStayChargedBetweenCallbacks() throws {
        let world = World(seed: 0)
        let (sandbox, _) = makeSandbox(budget: 3 << 20)
        let outcome = try world.perform { () -> String in
            try await sandbox.run(callback: "cache") { _ in try CallbackContext.current?.retain(bytes: 700 << 10) }
            do {
                try await sandbox.run(callback: "read") { _ in try CallbackContext.current?.charge(bytes: 400 << 10) }
                return "survived"
            } catch is Jetsam {
                return "jetsam"
            }
        }
        #expect(outcome == "jetsam")
    }
}
