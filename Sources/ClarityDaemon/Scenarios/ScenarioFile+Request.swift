import ControlProtocol
import DeviceActors
import ScenarioFiles

extension ScenarioFile {
    /// The `scenario` member of a request, decoded and validated: absent → -32602 `scenario`, a
    /// scenario that cannot run → -32005 naming its field.
    static func requested(_ value: JSONValue?, catalog: AppCatalog) throws(RPCError) -> Scenario {
        guard let value else { throw RPCError.invalidParams(field: "scenario", reason: "required") }
        do {
            return try scenario(from: value, catalog: catalog)
        } catch {
            throw RPCError.scenarioInvalid(field: error.field, reason: error.reason)
        }
    }
}
