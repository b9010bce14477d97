import BuiltInApps
import ControlProtocol
import Foundation
import ScenarioFiles

@testable import ClarityDaemon
@testable import DeviceActors

/// A scenario the repository ships, `config/scenarios/<name>.json`, read as the daemon reads a
/// request's.
func shippedScenario(_ name: String) throws -> Scenario {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../config/scenarios/\(name).json").standardizedFileURL
    return try ScenarioFile.requested(try JSONWire.decode(JSONValue.self, from: Data(contentsOf: url)), catalog: .builtIn)
}
