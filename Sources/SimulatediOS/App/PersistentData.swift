import Foundation

/// What a main app hands ``SimulatedApp/persistentData()``: its memory as JSON with sorted keys,
/// so that the same data are the same bytes in every process. A plain `JSONEncoder` writes an
/// object's keys in an order that follows the process's hash seed: two runs of one scenario
/// wrote different snapshots.
public enum PersistentData {
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }
}
