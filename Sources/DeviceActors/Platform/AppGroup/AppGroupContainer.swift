import Foundation
import ExtensionSandbox

/// The App Group containers of the device: one `UserDefaults` suite per app group, shared by
/// the main app and its three extensions (BEHAVIOR.md, Platform). An actor, so every read and
/// write is a scheduling point where cross-extension races can happen.
actor AppGroupContainer: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let trace: DeviceTrace
    private(set) var suites: [String: [String: StoredValue]]

    init(executor: WorldActorExecutor, trace: DeviceTrace, suites: [String: [String: StoredValue]] = [:]) {
        self.executor = executor
        self.trace = trace
        self.suites = suites
    }

    func value(suite: String, key: String) -> StoredValue? {
        let value = suites[suite]?[key]
        trace.record(.storeRead(suite: suite, key: key, bytes: value?.encodedSize ?? 0))
        return value
    }

    func set(_ value: StoredValue?, suite: String, key: String) {
        suites[suite, default: [:]][key] = value
        if let value {
            trace.record(.storeWrite(suite: suite, key: key, value: value))
        } else {
            trace.record(.storeRemove(suite: suite, key: key))
        }
    }

    func dump(suite: String) -> [String: StoredValue] { suites[suite] ?? [:] }

    func restore(suite: String, values: [String: StoredValue]) {
        suites[suite] = values
    }
}

/// `UserDefaults(suiteName:)` for simulated code: a handle on one App Group suite.
///
/// Every call is a platform call: it checks that the calling extension is still alive (a
/// jetsammed callback is cut here) and, for reads, charges the value's encoded size to the
/// callback's memory ledger for the rest of the callback.
public struct AppGroupDefaults: Sendable {
    public let suiteName: String
    let container: AppGroupContainer

    public func object(forKey key: String) async throws -> StoredValue? {
        try CallbackContext.current?.checkpoint()
        let value = await container.value(suite: suiteName, key: key)
        try CallbackContext.current?.charge(bytes: value?.encodedSize ?? 0)
        return value
    }

    /// `bool(forKey:)`: false when absent, as `UserDefaults`.
    public func bool(forKey key: String) async throws -> Bool {
        try await object(forKey: key)?.boolValue ?? false
    }

    /// `integer(forKey:)`: 0 when absent.
    public func integer(forKey key: String) async throws -> Int {
        try await object(forKey: key)?.intValue ?? 0
    }

    public func string(forKey key: String) async throws -> String? {
        try await object(forKey: key)?.stringValue
    }

    public func data(forKey key: String) async throws -> Data? {
        try await object(forKey: key)?.dataValue
    }

    public func set(_ value: StoredValue, forKey key: String) async throws {
        try CallbackContext.current?.checkpoint()
        await container.set(value, suite: suiteName, key: key)
    }

    public func removeObject(forKey key: String) async throws {
        try CallbackContext.current?.checkpoint()
        await container.set(nil, suite: suiteName, key: key)
    }
}
