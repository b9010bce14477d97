import ExtensionSandbox
@_spi(Host) import SimulatediOS

extension SimulatedDevice {
    /// A `parallel` step: each branch is a world task of its own, and the world runs with time
    /// passing until every branch is done (an `advance` inside a branch waits on the virtual
    /// clock while the other branches, and whatever their steps caused, go on). Returns, per
    /// branch, the first step that failed and why (nil when the branch went through). The step
    /// is one input, as an event is: the screen's banners are those it posted. Each branch
    /// step's begin and end are marked in `marks`, as steps `[step, branch, position]`.
    func runBranches(_ branches: [[ScenarioStep]], of step: Int, marks: StepMarks) throws(DeviceError)
        -> [(step: Int, message: String)?]
    {
        let springBoard = springBoard
        let world = world
        let trace = trace
        let device = self
        let from = trace.recorder.lastSequence
        let failures = try run(lettingTimePass: true) {
            await withTaskGroup(of: (Int, (Int, String)?).self) { group in
                for (index, steps) in branches.enumerated() {
                    group.addTask {
                        for (position, branchStep) in steps.enumerated() {
                            let begun = (seq: trace.recorder.lastSequence, t: world.clock.now.seconds)
                            defer {
                                marks.add(
                                    StepMark(
                                        position: [step, index, position], startSeq: begun.seq,
                                        endSeq: trace.recorder.lastSequence, startT: begun.t, endT: world.clock.now.seconds))
                            }
                            do {
                                try await Self.runInWorld(
                                    branchStep, on: device, springBoard: springBoard, world: world, trace: trace)
                            } catch let timeout as WaitTimedOut {
                                return (index, (position, timeout.message))
                            } catch let error as DeviceError {
                                return (index, (position, "\(error)"))
                            } catch {
                                return (index, (position, "\(Self.deviceError(error))"))
                            }
                        }
                        return (index, nil)
                    }
                }
                var failures = [(step: Int, message: String)?](repeating: nil, count: branches.count)
                for await (index, failure) in group {
                    failures[index] = failure.map { (step: $0.0, message: $0.1) }
                }
                return failures
            }
        }
        lastInputSequence = from
        return failures
    }

    /// A top-level `waitUntil` step: the world runs with time passing until `condition` holds;
    /// returns why the step failed (nil when the condition came to hold in time).
    func wait(until condition: ScenarioCondition, within seconds: Double) throws(DeviceError) -> String? {
        let from = trace.recorder.lastSequence
        let failure = try run(lettingTimePass: true) { [self] in try await waitInWorld(until: condition, within: seconds) }
        lastInputSequence = from
        return failure
    }

    /// Waits, in a world task, until `condition` holds: checked now and after every effect
    /// the device records, until `seconds` of virtual time have passed.
    private func waitInWorld(until condition: ScenarioCondition, within seconds: Double) async throws -> String? {
        let deadline = world.clock.now + .seconds(seconds)
        while true {
            let looked = trace.recorder.lastSequence
            guard let violation = try await condition.violation(in: self) else { return nil }
            guard world.clock.now < deadline, await trace.nextEffect(after: looked, orUntil: deadline) else {
                let limit = seconds == seconds.rounded() && seconds < 1e15 ? "\(Int64(seconds))" : "\(seconds)"
                return "waitUntil: not within \(limit) s (virtual): \(violation)"
            }
        }
    }

    /// One step of a branch, inside the world.
    private static func runInWorld(
        _ step: ScenarioStep, on device: SimulatedDevice, springBoard: SpringBoard, world: World, trace: DeviceTrace
    ) async throws {
        switch step {
        case .event(let event):
            try await springBoard.handle(event)
        case .intent(let name, let arguments, let appName):
            let target = try device.installedApp(named: appName)
            let work = try target.app.prepare(intent: name, arguments: arguments)
            trace.record(.intent(name: name), by: target.mainAppActor)
            _ = try await springBoard.runMainApp(of: target) { try await work() }
        case .advance(let seconds):
            await world.sleep(seconds: seconds)
        case .waitUntil(let condition, let seconds):
            if let timeout = try await device.waitInWorld(until: condition, within: seconds) {
                throw WaitTimedOut(message: timeout)
            }
        case .parallel, .expect, .failing:
            throw DeviceError.invalidArgument(field: "", reason: "not allowed inside a parallel branch")
        }
    }
}

/// A `waitUntil` in a branch whose condition did not come to hold in time.
private struct WaitTimedOut: Error {
    let message: String
}
