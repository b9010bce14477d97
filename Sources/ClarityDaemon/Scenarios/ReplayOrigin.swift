import ControlProtocol
import DeviceActors
import ScenarioFiles
@_spi(Host) import SimulatediOS

/// How a device left standing by `scenario.replay … until` was made (docs/scenarios.md,
/// "Stepping into a counterexample"): the scenario as the request gave it, the schedule as its
/// token, the quirks, and the decision it stopped at. The first line of its journal: a restart
/// redoes the replay — the same scenario, schedule and build stop at the same place — then
/// replays the requests the device got since, as for any device.
struct ReplayOrigin: Codable, Sendable, Equatable {
    var name: String
    /// The scenario's primary app.
    var app: String
    var scenario: JSONValue
    /// The schedule replayed (``ScheduleToken``): its picks off the non-preemptive schedule and the
    /// faults that fired.
    var token: String
    var quirks: [String: Bool]?
    /// The decision the world stopped at, before its pick; nil: at the run's end.
    var decision: Int?

    /// `<scenario>-at-d<N>`, or `<scenario>-at-end`: the scenario's name with every character a
    /// device name cannot hold made `-`, cut to fit the 64 a name may have.
    static func defaultName(of scenario: String, at decision: Int?) -> String {
        let suffix = decision.map { "-at-d\($0)" } ?? "-at-end"
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
        var stem = String(scenario.map { allowed.contains($0) ? $0 : "-" }.prefix(64 - suffix.count))
        if stem.isEmpty || stem.hasPrefix(".") { stem = "replay" + stem.dropFirst(stem.isEmpty ? 0 : 1) }
        return String(stem.prefix(64 - suffix.count)) + suffix
    }

    /// Why a device of this origin could not be made.
    struct Unreplayable: Error, CustomStringConvertible {
        let description: String
    }

    /// The device standing where the replay stopped.
    func stand(catalog: AppCatalog) throws -> SimulatedDevice {
        let scenario: Scenario
        do {
            scenario = try ScenarioFile.scenario(from: self.scenario, catalog: catalog)
        } catch {
            throw Unreplayable(description: "its scenario no longer reads: \(error.field): \(error.reason)")
        }
        let token: ScheduleToken
        switch ScheduleToken.parse(self.token) {
        case .failure(let error): throw Unreplayable(description: "its schedule token does not read: \(error.reason)")
        case .success(let parsed): token = parsed
        }
        let hash = ScenarioFile.hash(of: self.scenario)
        guard token.scenarioHash.isEmpty || token.scenarioHash == hash else {
            throw Unreplayable(description: "its token was found for another scenario (hash \(token.scenarioHash); its scenario's is \(hash))")
        }
        return try ScenarioBreakpoint.stand(
            scenario, named: name, replaying: .deviations(token.deviations, faults: token.faults), quirks: quirks ?? [:],
            atDecision: decision)
    }
}
