import ControlProtocol
import Foundation

/// Owner: lead. Serves every device method (everything but `daemon.*`).
/// Placeholder interface until the device layer lands.
final class DeviceService: Sendable {
    /// - Parameters:
    ///   - defaultApp: the app of device `default` (`clarity`, …).
    ///   - clockMode: `virtual` or `wall`.
    ///   - deviceDefaults: the whole clarityd.json object; per-device defaults (memoryBudgets,
    ///     baselineBytes, quirks, …) are read from it.
    ///   - stateDirectory: where device state is persisted.
    init(defaultApp: String, clockMode: String, deviceDefaults: JSONValue, stateDirectory: URL, log: Logger) throws {}

    /// Handles one device method; nil when `method` is not a device method.
    func handle(method: String, params: JSONValue?) -> Result<JSONValue, RPCError>? { nil }

    /// Names of the devices, for `daemon.status`.
    var deviceNames: [String] { [] }

    /// Writes all state to the state directory (called on shutdown).
    func flush() {}
}
