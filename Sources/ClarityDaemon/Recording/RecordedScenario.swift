import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// A recorded session as a scenario (docs/scenarios.md): the device as it was created — its
/// name, app, start, time zone, seed and whole config, so that neither clarityd.json nor a later
/// build's defaults change it — then its steps, each encoded once (``RecordedStep``).
///
/// Written without ever being a tree of values: as ``JSONWire`` writes a value (members
/// sorted, no whitespace) for `record.stop`'s answer, or laid out as a scenario file
/// (``ScenarioText``) for its `path`.
struct RecordedScenario: Sendable {
    let name: String
    /// The recorded device's name, which the scenario's device takes (an app may sign up to its server under it).
    let device: String
    /// The app; nil when several are installed (then `apps`).
    let app: String?
    let apps: [String]?
    let start: String
    let timezone: String
    let seed: UInt64
    let config: DeviceConfig
    let steps: [RecordedStep]

    init(_ creation: DeviceCreation, name: String, steps: [RecordedStep]) {
        self.name = name
        device = creation.name
        app = creation.apps == nil ? creation.app : nil
        apps = creation.apps
        start = creation.start
        timezone = creation.timezone
        seed = creation.seed
        config = creation.config
        self.steps = steps
    }

    /// Its members but `steps`, each as ``JSONWire`` encodes it.
    func members() throws -> [String: [UInt8]] {
        var members: [String: [UInt8]] = [
            "name": try JSONWire.bytes(name), "device": try JSONWire.bytes(device), "start": try JSONWire.bytes(start),
            "timezone": try JSONWire.bytes(timezone),
            "seed": try JSONWire.bytes(seed), "config": try JSONWire.bytes(config),
        ]
        members["app"] = try app.map { try JSONWire.bytes($0) }
        members["apps"] = try apps.map { try JSONWire.bytes($0) }
        return members
    }

    /// Appends the scenario as ``JSONWire`` writes it.
    func write(to bytes: inout [UInt8]) throws {
        var members = try members().mapValues { value -> (inout [UInt8]) throws -> Void in { $0 += value } }
        members["steps"] = writeSteps
        try Self.appendObject(members, to: &bytes)
    }

    /// The bytes ``write(to:)`` appends.
    func byteCount() throws -> Int {
        let members = try members()
        let steps = steps.reduce(2 + max(0, steps.count - 1)) { $0 + $1.byteCount }
        // `{}`, a comma between members, `"key":` each.
        return (["steps": steps] as [String: Int]).merging(members.mapValues(\.count)) { $1 }.reduce(1) { sum, member in
            sum + 1 + member.key.utf8.count + 3 + member.value
        }
    }

    /// Appends an object whose members `members` append, keys in the order ``JSONWire`` writes
    /// them (by their UTF-8 bytes). The keys are names, which JSON spells without escapes.
    static func appendObject(_ members: [String: (inout [UInt8]) throws -> Void], to bytes: inout [UInt8]) throws {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array("\"\(key)\":".utf8)
            try members[key]?(&bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Lays the scenario out as a file (``ScenarioText``), handing it to `emit` a line at a time.
    func layOut(to emit: ([UInt8]) throws -> Void) throws {
        try ScenarioText.write(members: try members(), steps: steps.count, step: { steps[$0].write(to: &$1) }, to: emit)
    }

    private func writeSteps(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, step) in steps.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            step.write(to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
