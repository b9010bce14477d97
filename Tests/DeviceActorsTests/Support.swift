import ControlProtocol
import Foundation

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// A Clarity device starting Monday 2026-01-05 09:00 UTC.
func makeClarityDevice(seed: UInt64 = 1, config: DeviceConfig = DeviceConfig()) throws -> SimulatedDevice {
    try SimulatedDevice(
        DeviceDescription(
            name: "test", apps: .registered([.clarity]), start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!,
            timeZone: TimeZone(identifier: "UTC")!, seed: seed, config: config))
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

/// A repeating activity from 00:00 to 23:59: its interval starts as soon as it is monitored.
/// Written with Foundation's `DateComponents`, as iOS code writes it.
let allDay = DeviceActivitySchedule(
    intervalStart: DateComponents(hour: 0, minute: 0), intervalEnd: DateComponents(hour: 23, minute: 59), repeats: true)
