import Foundation

@testable import DeviceActors

/// Intent arguments for tests, from a plain dictionary.
struct TestArguments: IntentArguments {
    var values: [String: any Sendable] = [:]

    func string(_ name: String) throws(DeviceError) -> String? { values[name] as? String }
    func bool(_ name: String) throws(DeviceError) -> Bool? { values[name] as? Bool }
    func int(_ name: String) throws(DeviceError) -> Int? { values[name] as? Int }
    func strings(_ name: String) throws(DeviceError) -> [String]? { values[name] as? [String] }
    func objects(_ name: String) throws(DeviceError) -> [any IntentArguments]? {
        (values[name] as? [[String: any Sendable]]).map { $0.map { TestArguments(values: $0) } }
    }
}

/// A Clarity device starting Monday 2026-01-05 09:00 UTC.
func makeClarityDevice(seed: UInt64 = 1, config: DeviceConfig = DeviceConfig()) throws -> SimulatedDevice {
    try SimulatedDevice(
        name: "test", app: "clarity", start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!,
        timeZone: TimeZone(identifier: "UTC")!, seed: seed, clock: .virtual, config: config)
}

extension DeviceOutcome {
    var kinds: [String] { effects.map(\.entry.payload.kind) }

    func first(_ kind: String) -> Effect? { effects.first { $0.entry.payload.kind == kind }?.entry.payload }

    var shownShields: [ShieldConfiguration] {
        effects.compactMap {
            if case .shieldShown(_, let configuration, _) = $0.entry.payload { return configuration }
            return nil
        }
    }

    var notifications: [String] {
        effects.compactMap {
            if case .notification(let title, let body) = $0.entry.payload { return "\(title): \(body)" }
            return nil
        }
    }
}

let instagram = "com.burbn.instagram"
