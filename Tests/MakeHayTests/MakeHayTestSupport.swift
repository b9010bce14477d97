import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import MakeHay

let group = "group.com.makehay.app"
let instagram = "com.burbn.instagram"

extension TestDevice {
    /// A Make Hay device (Monday 2026-01-05 09:00 UTC) with Instagram selected: the first
    /// evaluation finds 0 steps today and blocks it.
    static func makeHay(config: DeviceConfig = DeviceConfig(), start: String = "2026-01-05T09:00:00Z") throws -> TestDevice {
        let device = try TestDevice(app: .makeHay, start: start, config: config)
        try device.intent(
            "selectApps", ["apps": [.string(instagram)]],
            effects: [
                .storeWrite(
                    suite: group, key: "selection",
                    value: .dictionary(["apps": .array([.string(instagram)]), "categories": .array([])])),
                .storeWrite(suite: group, key: "lastCheckedDate", value: .string(String(start.prefix(10)))),
                .shieldApply(store: "default", applications: [instagram], categories: .none),
            ])
        return device
    }

    func makeHayState() throws -> MakeHayState { try appState(as: MakeHayState.self) }

    /// `health.sample` while the app is in memory: the sample, then the observer's evaluation.
    func walk(_ steps: Double, effects: [Effect]) throws {
        try send(.healthSample(kind: .steps, value: steps), effects: [.healthSample(kind: "steps", value: steps)] + effects)
    }
}
