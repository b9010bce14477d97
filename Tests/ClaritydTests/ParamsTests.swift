import ControlProtocol
import DeviceActors
import Foundation
import Testing

@testable import clarityd

@Suite struct ParamsTests {
    private func field(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as RPCError {
            #expect(error.code == RPCError.Code.invalidParams)
            return error.data?["field"]?.stringValue
        } catch {
            return "\(error)"
        }
    }

    @Test func wrongTypesNameTheirJSONPath() throws {
        let params = try Params(["seconds": "ten", "args": ["apps": ["ok", 3]], "schedule": ["intervalStart": ["hour": "x"]]])
        #expect(field { _ = try params.double("seconds") } == "seconds")
        #expect(field { _ = try params.object("args")?.strings("apps") } == "args.apps[1]")
        #expect(field { _ = try params.decode(DeviceActivitySchedule.self, "schedule") } == "schedule.intervalStart.hour")
        #expect(field { _ = try params.requiredString("missing") } == "missing")
    }

    @Test func paramsMustBeAnObject() {
        #expect(throws: RPCError.self) { try Params(.array([1])) }
        #expect(throws: Never.self) { try Params(nil) }
    }

    @Test func deviceFieldsKeepThePathForTheDeviceLayer() throws {
        let fields = DeviceFields(params: try Params(["apps": [1]], prefix: "args."))
        #expect(throws: DeviceError.invalidArgument(field: "args.apps[0]", reason: "expected a string, got number")) {
            _ = try fields.strings("apps")
        }
    }
}

@Suite struct DeviceStateStoreTests {
    @Test func savesAtomicallyAndMovesCorruptFilesAside() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clarityd-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DeviceStateStore(stateDirectory: directory, log: Logger(level: .error))
        let device = try SimulatedDevice(
            name: "saved", app: "clarity", start: Date(timeIntervalSince1970: 1_767_603_600), timeZone: TimeZone(identifier: "UTC")!,
            seed: 9, clock: .virtual, config: DeviceConfig())
        _ = try device.storeSet(suite: nil, key: "wifiGateEnabled", value: .bool(true))
        try store.save(device.snapshot())
        try Data("garbage".utf8).write(to: store.directory.appendingPathComponent("broken.json"))

        let loaded = store.loadAll()
        #expect(loaded.map(\.name) == ["saved"])
        #expect(loaded.first?.suites["group.com.clarity.focus"]?["wifiGateEnabled"] == .bool(true))
        let files = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(files.contains { $0.hasPrefix("broken.json.corrupt-") })
        #expect(!files.contains("broken.json"))
        #expect(!files.contains { $0.hasSuffix(".tmp") })
    }
}
