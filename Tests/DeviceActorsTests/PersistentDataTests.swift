import BuiltInApps
import DeviceActors
import DeviceTesting
import Foundation
import Testing

@_spi(Host) import SimulatediOS

/// Every built-in app's own data in a snapshot is JSON with sorted keys
/// (``PersistentData/encode(_:)``): a plain `JSONEncoder` orders keys by the process's hash seed,
/// so the same scenario run in two processes wrote two different snapshots (MakeHay's, seen
/// regenerating the fuzz-snapshot corpus).
@Suite struct PersistentDataTests {
    @Test(arguments: AppRegistration.builtIn.map(\.name))
    func anAppsDataIsWrittenWithSortedKeys(app: String) throws {
        let registration = try #require(AppRegistration.builtIn.first { $0.name == app })
        let device = try TestDevice(app: registration)
        for event: DeviceEvent in [.lock, .unlock, .appOpen(app: "com.burbn.instagram"), .appClose(app: "com.burbn.instagram")] {
            _ = try device.device.apply(event)
        }
        _ = try device.device.advance(seconds: 3_600)
        // ScrollKitty keeps everything in its App Group; the others have a store of their own.
        guard let data = try device.device.snapshot().appData else {
            #expect(app == "scrollkitty", "\(app) kept no data of its own")
            return
        }
        let sorted = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        #expect(String(decoding: data, as: UTF8.self) == String(decoding: sorted, as: UTF8.self))
    }
}
