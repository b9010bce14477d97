import BuiltInApps
import DeviceActors
import DeviceTesting
import Foundation
import Testing
import ThePhone

@_spi(Host) import SimulatediOS

/// A snapshot file read back at a restart (`SimulatedDevice(restoring:catalog:)`): a damaged one
/// is refused with the field that is wrong (the daemon then sets the file aside), never trapped
/// on or run out of memory on. Found by the fuzz-snapshot target (docs/fuzzing.md).
@Suite struct SnapshotRestoreTests {
    @Test(arguments: [-1, Int64(1) << 53 + 1, .max, .min])
    func aSnapshotAtNoVirtualTimeIsRefused(milliseconds: Int64) throws {
        var snapshot = try TestDevice(app: .thePhone).device.snapshot()
        snapshot.nowMilliseconds = milliseconds
        #expect(throws: DeviceError.invalidArgument(field: "nowMilliseconds", reason: "\(milliseconds) is no virtual time of a device")) {
            try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.thePhone]))
        }
    }

    /// The Phone's backend then catches up on ten thousand years of jobs at once: it once listed
    /// a billion temptation times ahead (out of memory).
    @Test func aPhoneTenThousandYearsOnComesBack() throws {
        var snapshot = try TestDevice(app: .thePhone).device.snapshot()
        snapshot.nowMilliseconds = 3_652_425 * 86_400_000
        let restored = try SimulatedDevice(restoring: snapshot, catalog: AppCatalog([.thePhone]))
        _ = try restored.advance(seconds: 86_400)
        #expect(try restored.state().time.hasPrefix("12026-01-"))
    }
}
