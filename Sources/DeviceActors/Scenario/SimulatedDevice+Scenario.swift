import ExtensionSandbox
@_spi(Host) import SimulatediOS

extension SimulatedDevice {
    /// A `parallel` step: each branch is a world task of its own, and the world runs with time
    /// passing until every branch is done (an `advance` inside a branch waits on the virtual
    /// clock while the other branches, and whatever their steps caused, go on). Returns, per
    /// branch, the first step that failed and why (nil when the branch went through).
    func runBranches(_ branches: [[ScenarioStep]]) throws(DeviceError) -> [(step: Int, error: DeviceError)?] {
        let springBoard = springBoard
        let app = app
        let world = world
        let trace = trace
        let actor = "\(appName).app"
        return try run(lettingTimePass: true) {
            await withTaskGroup(of: (Int, (Int, DeviceError)?).self) { group in
                for (index, steps) in branches.enumerated() {
                    group.addTask {
                        for (position, step) in steps.enumerated() {
                            do {
                                try await Self.runInWorld(
                                    step, springBoard: springBoard, app: app, world: world, trace: trace, actor: actor)
                            } catch let error as DeviceError {
                                return (index, (position, error))
                            } catch {
                                return (index, (position, Self.deviceError(error)))
                            }
                        }
                        return (index, nil)
                    }
                }
                var failures = [(step: Int, error: DeviceError)?](repeating: nil, count: branches.count)
                for await (index, failure) in group {
                    failures[index] = failure.map { (step: $0.0, error: $0.1) }
                }
                return failures
            }
        }
    }

    /// One step of a branch, inside the world.
    private static func runInWorld(
        _ step: ScenarioStep, springBoard: SpringBoard, app: any SimulatedApp, world: World, trace: DeviceTrace,
        actor: String
    ) async throws {
        switch step {
        case .event(let event):
            try await springBoard.handle(event)
        case .intent(let name, let arguments):
            let work = try app.prepare(intent: name, arguments: arguments)
            trace.record(.intent(name: name), by: actor)
            _ = try await springBoard.runMainApp { try await work() }
        case .advance(let seconds):
            await world.sleep(seconds: seconds)
        case .parallel, .expect:
            throw DeviceError.invalidArgument(field: "", reason: "not allowed inside a parallel branch")
        }
    }
}
