import Foundation
@_spi(Host) import SimulatediOS

/// Why a scenario cannot run: `field` is the JSON path of the bad part (`steps[3].event.type`).
public struct ScenarioInvalid: Error, Sendable, Equatable {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}

extension Scenario {
    /// Most steps a scenario may hold, those inside `parallel` branches included.
    public static let maxSteps = 10_000
    /// Most invariants a scenario may list.
    public static let maxInvariants = 100
    /// Most condition checks one run may make: the invariants (the scenario's and the app's
    /// built-in ones) are checked after every step and at the end. 500 steps × 2 000 invariants
    /// once took 60 CPU-seconds a schedule.
    public static let maxChecks = 100_000
    /// Most branches × steps in them, for one `parallel` step. Its branches are tasks ready at
    /// once, and each decision among them weighs (and records) every one, so a step's cost grows
    /// with their product, not with its steps alone: a step of 1 000 one-`advance` branches took
    /// 1.9 s, 3 500 took 33 s and 1.9 GB, 9 999 did not end in 5 minutes at 7.8 GB (issue 38).
    /// At the bound a step costs about what 10 000 steps in a row do.
    public static let maxParallelWork = 100_000
    /// Most virtual time one run may cover (every `advance` outside branches, and for each
    /// `parallel` step its longest branch): ten years.
    public static let maxVirtualSeconds: Double = 3_653 * 86_400

    /// Checks what decoding cannot, before anything runs: every intent is one
    /// the app answers with arguments it takes (each is prepared on a throwaway device, not
    /// run), `advance` and a `waitUntil`'s limit are > 0 and at most a year, a `parallel`
    /// branch holds only `event`, `intent`, `advance` and `waitUntil` steps, `fails` goes with a
    /// top-level `event`, `intent` or `advance`, and one run's cost is bounded (``maxSteps``,
    /// ``maxInvariants``, ``maxChecks``, ``maxParallelWork``, ``maxVirtualSeconds``), so that no
    /// request can keep a scenario thread for hours.
    public func validate() throws(ScenarioInvalid) {
        try validateSize()
        let device: SimulatedDevice
        do {
            device = try SimulatedDevice(
                self.device(named: "validation", config: config), options: DeviceRunOptions(launch: .skipped))
        } catch {
            throw ScenarioInvalid(field: "config", reason: "\(error)")
        }
        for (index, step) in steps.enumerated() {
            try Self.validate(step, at: "steps[\(index)]", on: device, inBranch: false)
        }
        try validateVirtualTime()
    }

    /// The bounds checked before a throwaway device is built: steps, invariants, checks a run,
    /// the work of each `parallel` step.
    private func validateSize() throws(ScenarioInvalid) {
        let stepCount = steps.reduce(0) { count, step in
            if case .parallel(let branches) = step { return count + 1 + branches.reduce(0) { $0 + $1.count } }
            return count + 1
        }
        guard stepCount <= Self.maxSteps else {
            throw ScenarioInvalid(
                field: "steps", reason: "\(stepCount) steps (branches included); at most \(Self.maxSteps): split the scenario")
        }
        guard invariants.count <= Self.maxInvariants else {
            throw ScenarioInvalid(field: "invariants", reason: "\(invariants.count) invariants; at most \(Self.maxInvariants)")
        }
        for (index, step) in steps.enumerated() {
            guard case .parallel(let branches) = step else { continue }
            let work = branches.count * branches.reduce(0) { $0 + $1.count }
            guard work <= Self.maxParallelWork else {
                throw ScenarioInvalid(
                    field: "steps[\(index)].parallel",
                    reason:
                        "\(branches.count) branches × \(work / branches.count) steps in them = \(work); at most \(Self.maxParallelWork): fewer branches (a race needs two or three) or fewer steps in them")
            }
        }
        let conditions = invariants.count + (builtInInvariants ? scenarioInvariants.count : 0)
        let checks = (steps.count + 1) * conditions
        guard checks <= Self.maxChecks else {
            throw ScenarioInvalid(
                field: "invariants",
                reason:
                    "\(steps.count) steps × \(conditions) invariants (built-in ones included) = \(checks) checks a run; at most \(Self.maxChecks): fewer invariants or fewer steps")
        }
    }

    /// The virtual time one run may cover, checked once every `advance` and `waitUntil` is known
    /// to be > 0 and at most a year: the sum is then finite and whole seconds fit an `Int`
    /// (`advance: 1e19` once trapped here, converting the sum for the message; found by
    /// `scripts/fuzz.sh`).
    private func validateVirtualTime() throws(ScenarioInvalid) {
        // A `waitUntil` counts for its limit: the most time it may let pass.
        let seconds = steps.reduce(0.0) { total, step in
            switch step {
            case .advance(let seconds), .waitUntil(_, let seconds), .failing(.advance(let seconds), _): return total + seconds
            case .parallel(let branches):
                let longest = branches.map { branch in
                    branch.reduce(0.0) { sum, inner in
                        switch inner {
                        case .advance(let seconds), .waitUntil(_, let seconds): return sum + seconds
                        default: return sum
                        }
                    }
                }.max()
                return total + (longest ?? 0)
            default: return total
            }
        }
        guard seconds <= Self.maxVirtualSeconds else {
            throw ScenarioInvalid(
                field: "steps",
                reason: "the steps advance \(Int(seconds)) s of virtual time; at most \(Int(Self.maxVirtualSeconds)) (ten years)")
        }
    }

    private static func validate(_ step: ScenarioStep, at path: String, on device: SimulatedDevice, inBranch: Bool)
        throws(ScenarioInvalid)
    {
        switch step {
        case .event:
            return
        case .intent(let name, let arguments, let app):
            do {
                _ = try device.installedApp(named: app).app.prepare(intent: name, arguments: arguments)
            } catch .invalidArgument(let field, let reason) where field == "app" {
                throw ScenarioInvalid(field: "\(path).intent.app", reason: reason)
            } catch .invalidArgument(let field, let reason) {
                throw ScenarioInvalid(field: "\(path).intent.\(field)", reason: reason)
            } catch .unknownIntent(_, let known) {
                throw ScenarioInvalid(field: "\(path).intent.name", reason: "unknown intent (known: \(known.joined(separator: ", ")))")
            } catch {
                throw ScenarioInvalid(field: "\(path).intent", reason: "\(error)")
            }
        case .advance(let seconds):
            guard seconds > 0, seconds <= SimulatedDevice.longestAdvanceSeconds else {
                throw ScenarioInvalid(field: "\(path).advance", reason: "must be > 0 and at most a year (31622400)")
            }
        case .waitUntil(_, let seconds):
            guard seconds > 0, seconds <= SimulatedDevice.longestAdvanceSeconds else {
                throw ScenarioInvalid(field: "\(path).waitUntil.within", reason: "must be > 0 and at most a year (31622400)")
            }
        case .parallel(let branches):
            guard !inBranch else {
                throw ScenarioInvalid(field: "\(path).parallel", reason: "a parallel step cannot be inside a branch")
            }
            guard !branches.isEmpty else { throw ScenarioInvalid(field: "\(path).parallel", reason: "needs at least one branch") }
            for (branch, steps) in branches.enumerated() {
                for (position, inner) in steps.enumerated() {
                    try validate(inner, at: "\(path).parallel[\(branch)][\(position)]", on: device, inBranch: true)
                }
            }
        case .expect:
            guard !inBranch else {
                throw ScenarioInvalid(field: "\(path).expect", reason: "expect steps go between steps, not inside a branch")
            }
        case .failing(let input, _):
            guard !inBranch else {
                throw ScenarioInvalid(field: "\(path).fails", reason: "a failing input goes at the top level, not inside a branch")
            }
            switch input {
            case .event, .intent, .advance: try validate(input, at: path, on: device, inBranch: false)
            default: throw ScenarioInvalid(field: "\(path).fails", reason: "goes with an event, intent or advance step")
            }
        }
    }
}
