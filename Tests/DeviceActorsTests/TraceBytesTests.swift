import Clarity
import DeviceTesting
import ExtensionSandbox
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// `config.traceBytes` bounds what a device's trace keeps, so that a daemon hosting many devices
/// bounds its memory (the soak's 100 devices × 24 MiB otherwise); the oldest entries go first.
@Suite struct TraceBytesTests {
    @Test func aDevicesTraceKeepsWithinItsBytesTheNewestEntries() throws {
        var config = DeviceConfig()
        config = try config.applying({ var o = DeviceConfig.Overrides(); o.traceBytes = 64 << 10; return o }())
        let device = try TestDevice(app: .clarity, config: config, exhaustivity: .off)
        for _ in 0..<2_000 {
            try device.send(.lock)
            try device.send(.unlock)
        }
        let kept = device.device.traceEntries(since: nil, limit: nil, kinds: nil)
        // What the kept entries hold in memory: each its place in the trace, plus what its
        // effect holds out of line.
        let bytes = kept.reduce(0) { $0 + MemoryLayout<TraceEntry<Effect>>.stride + $1.entry.payload.heldBytes }
        #expect(bytes <= 64 << 10)
        #expect(kept.count > 100, "the newest entries are kept")
        #expect(kept.first.map { $0.entry.sequence > 1_000 } == true, "the oldest went first")
        #expect(kept.last?.entry.payload == .appState(locked: false, foregroundApp: nil, shieldShown: false))
    }

    @Test func aTraceBoundOutOfRangeIsRefusedByName() {
        for bytes in [0, 65_535, (1 << 30) + 1] {
            #expect(throws: DeviceError.invalidArgument(field: "traceBytes", reason: "65536 to 1073741824 bytes (64 KiB to 1 GiB)")) {
                try DeviceConfig().applying({ var o = DeviceConfig.Overrides(); o.traceBytes = bytes; return o }())
            }
        }
    }
}
