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
    /// Checks what decoding cannot, before anything runs: the app exists, every intent is one
    /// the app answers with arguments it takes (each is prepared on a throwaway device, not
    /// run), `advance` is > 0 and at most a year, and a `parallel` branch holds only `event`,
    /// `intent` and `advance` steps.
    public func validate() throws(ScenarioInvalid) {
        let device: SimulatedDevice
        do {
            device = try SimulatedDevice(
                name: "validation", app: app, start: start, timeZone: timeZone, timeZoneName: timeZoneName, seed: seed,
                clock: .virtual, config: config, launch: false)
        } catch .unknownApp(let name) {
            throw ScenarioInvalid(field: "app", reason: "unknown app \(name) (available: \(AppCatalog.available.joined(separator: ", ")))")
        } catch {
            throw ScenarioInvalid(field: "config", reason: "\(error)")
        }
        for (index, step) in steps.enumerated() {
            try Self.validate(step, at: "steps[\(index)]", on: device, inBranch: false)
        }
    }

    private static func validate(_ step: ScenarioStep, at path: String, on device: SimulatedDevice, inBranch: Bool)
        throws(ScenarioInvalid)
    {
        switch step {
        case .event:
            return
        case .intent(let name, let arguments):
            do {
                _ = try device.app.prepare(intent: name, arguments: arguments)
            } catch .invalidArgument(let field, let reason) {
                throw ScenarioInvalid(field: "\(path).intent.\(field)", reason: reason)
            } catch .unknownIntent(_, let known) {
                throw ScenarioInvalid(field: "\(path).intent.name", reason: "unknown intent (known: \(known.joined(separator: ", ")))")
            } catch {
                throw ScenarioInvalid(field: "\(path).intent", reason: "\(error)")
            }
        case .advance(let seconds):
            guard seconds > 0, seconds <= 366 * 86_400 else {
                throw ScenarioInvalid(field: "\(path).advance", reason: "must be > 0 and at most a year (31622400)")
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
        }
    }
}
