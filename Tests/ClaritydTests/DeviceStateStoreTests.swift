import BuiltInApps
import Clarity
import ControlProtocol
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS
@testable import ClarityDaemon

/// Device state on disk: journals that start at creation or at a snapshot, torn and corrupt
/// lines, and state files of format 1.
@Suite struct DeviceStateStoreTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityd-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    private let log = Logger(level: .error)

    private func store() throws -> DeviceStateStore {
        try DeviceStateStore(stateDirectory: directory, syncs: true, openJournals: 64, log: log)
    }


    private func creation(_ name: String) -> DeviceCreation {
        DeviceCreation(
            name: name, app: "clarity", start: "2026-01-05T09:00:00Z", timezone: "UTC", seed: 4, clock: .virtual,
            config: DeviceConfig())
    }

    private func entry(_ sequence: Int, _ type: String) -> JournalEntry {
        JournalEntry(
            at: 0, method: "event", params: ["device": "d", "type": .string(type)],
            after: .init(DeviceMark(sequence: sequence, milliseconds: 0, random: 4, dataRevision: 0, configRevision: 0)))
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("devices").path).sorted()
    }

    private func journalURL(_ name: String) -> URL {
        directory.appendingPathComponent("devices/\(name).journal")
    }

    @Test func aJournalGivesBackItsCreationAndEveryLine() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try store().create(creation("d"))
        _ = try journal.append(JSONWire.bytes(entry(1, "lock")))
        _ = try journal.append(JSONWire.bytes(entry(2, "unlock")))
        journal.finish()

        let loaded = try loadAll(store())
        #expect(loaded.map(\.name) == ["d"])
        guard case .created(let made)? = loaded.first?.base else {
            Issue.record("expected a creation base")
            return
        }
        #expect(made == creation("d"))
        #expect(loaded.first?.entries.map { $0.params["type"] } == ["lock", "unlock"])
        #expect(try files() == ["d.journal"])
    }

    @Test func anEntryIsWrittenAsItsCodableFormWouldBe() throws {
        let entry = JournalEntry(
            at: 1_500, method: "store.set", params: ["device": "d", "key": "k", "value": ["a": [1, 2.5]]],
            after: .init(DeviceMark(sequence: 7, milliseconds: 1_500, random: .max, dataRevision: 0, configRevision: 0)))
        #expect(try JSONWire.bytes(entry.json) == JSONWire.bytes(entry))
        let decoded = try JSONValueDecoder().decode(JournalEntry.self, from: JSONValue(parsing: Data(JSONWire.bytes(entry.json))))
        #expect(decoded.after == entry.after, "the generator's state survives JSON exactly")
    }

    @Test func aLineCutShortByACrashIsDroppedAndTheFileMended() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try store().create(creation("d"))
        _ = try journal.append(JSONWire.bytes(entry(1, "lock")))
        journal.finish()
        let whole = try Data(contentsOf: journalURL("d"))
        let handle = try FileHandle(forWritingTo: journalURL("d"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"at":0,"method":"ev"#.utf8))
        try handle.close()

        #expect(try loadAll(store()).first?.entries.count == 1)
        #expect(try Data(contentsOf: journalURL("d")) == whole)
    }

    @Test func aCorruptLineEndsTheReplayThereAndTheWholeFileIsKeptAside() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try store().create(creation("d"))
        _ = try journal.append(JSONWire.bytes(entry(1, "lock")))
        _ = try journal.append(Array("not json".utf8))
        _ = try journal.append(JSONWire.bytes(entry(3, "unlock")))
        journal.finish()

        #expect(try loadAll(store()).first?.entries.map { $0.params["type"] } == ["lock"])
        #expect(try files().contains { $0.hasPrefix("d.journal.corrupt-") })
    }

    @Test func aJournalThatIsNotOneOrNamesAnotherDeviceIsMovedAside() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try store().create(creation("elsewhere")).finish()
        try FileManager.default.moveItem(at: journalURL("elsewhere"), to: journalURL("here"))
        try Data("garbage\n".utf8).write(to: journalURL("broken"))

        #expect(try loadAll(store()).isEmpty)
        let names = try files()
        #expect(names.contains { $0.hasPrefix("here.journal.corrupt-") })
        #expect(names.contains { $0.hasPrefix("broken.journal.corrupt-") })
        #expect(!names.contains("here.journal") && !names.contains("broken.journal"))
    }

    private func device(_ name: String = "d") throws -> SimulatedDevice {
        try SimulatedDevice(
            DeviceDescription(
                name: name, apps: .registered([.clarity]), start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!,
                timeZone: TimeZone(identifier: "UTC")!, seed: 9))
    }

    /// Compacts `device` as the daemon does, into snapshot `generation`.
    private func compact(_ device: SimulatedDevice, generation: Int) throws -> (DeviceSnapshot, DeviceJournal) {
        let snapshot = try device.snapshot()
        let journal = try store().compact(
            JSONWire.bytes(snapshot), of: device.name, sequence: snapshot.traceSequence ?? 0, generation: generation)
        return (snapshot, journal)
    }

    @Test func aCompactedDeviceContinuesFromItsSnapshot() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        _ = try device.storeSet(suite: nil, key: "wifiGateEnabled", value: .bool(true))
        let (snapshot, journal) = try compact(device, generation: 1)
        _ = try journal.append(JSONWire.bytes(entry(snapshot.traceSequence! + 1, "lock")))
        journal.finish()

        let loaded = try loadAll(store())
        guard case .snapshot(let restored)? = loaded.first?.base else {
            Issue.record("expected a snapshot base")
            return
        }
        #expect(restored.suites["group.com.clarity.focus"]?["wifiGateEnabled"] == .bool(true))
        #expect(restored.random == snapshot.random && restored.traceSequence == snapshot.traceSequence)
        #expect(loaded.first?.generation == 1 && loaded.first?.entries.count == 1)
        #expect(try files() == ["d.1.snapshot", "d.journal"])
    }

    /// Fuzzer finding N3: `kill -9` after a compaction wrote its snapshot but before its journal
    /// replaced the old one. The old journal names the old snapshot, which is still there.
    @Test func aCrashBeforeTheNewJournalLeavesTheOldJournalAndItsSnapshot() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        _ = try device.storeSet(suite: nil, key: "k", value: .int(1))
        let (first, journal) = try compact(device, generation: 1)
        _ = try journal.append(JSONWire.bytes(entry(first.traceSequence! + 1, "lock")))
        journal.finish()
        _ = try device.storeSet(suite: nil, key: "k", value: .int(2))
        // The next compaction's snapshot, written; the crash comes before its journal.
        try Data(JSONWire.bytes(try device.snapshot())).write(to: directory.appendingPathComponent("devices/d.2.snapshot"))

        let loaded = try loadAll(store())
        guard case .snapshot(let restored)? = loaded.first?.base else {
            Issue.record("expected a snapshot base")
            return
        }
        #expect(restored.suites["group.com.clarity.focus"]?["k"] == .int(1))
        #expect(loaded.first?.generation == 1 && loaded.first?.entries.count == 1)
        #expect(try files() == ["d.1.snapshot", "d.journal"], "the snapshot no journal names is deleted")
    }

    /// `kill -9` after the new journal is in place but before the old snapshot is deleted.
    @Test func aCrashBeforeTheOldSnapshotIsDeletedKeepsTheNewOne() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let (_, journal) = try compact(device, generation: 1)
        journal.finish()
        let kept = directory.appendingPathComponent("devices/d.1.snapshot.kept")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("devices/d.1.snapshot"), to: kept)
        _ = try device.storeSet(suite: nil, key: "k", value: .int(2))
        try compact(device, generation: 2).1.finish()
        try FileManager.default.moveItem(at: kept, to: directory.appendingPathComponent("devices/d.1.snapshot"))

        let loaded = try loadAll(store())
        guard case .snapshot(let restored)? = loaded.first?.base else {
            Issue.record("expected a snapshot base")
            return
        }
        #expect(restored.suites["group.com.clarity.focus"]?["k"] == .int(2))
        #expect(loaded.first?.generation == 2)
        #expect(try files() == ["d.2.snapshot", "d.journal"])
    }

    @Test func removingADeviceDeletesEveryOneOfItsFilesAndNoOtherDevices() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try compact(device("d"), generation: 3).1.finish()
        try compact(device("d.3"), generation: 1).1.finish()
        try store().remove("d")
        #expect(try files() == ["d.3.1.snapshot", "d.3.journal"])
        #expect(try loadAll(store()).map(\.name) == ["d.3"])
    }

    @Test func fileNamesSayWhoseFileItIs() {
        let cases: [(String, String?, Int??)] = [
            ("d.journal", "d", .some(nil)), ("d.json", "d", 0), ("d.12.snapshot", "d", 12),
            ("a.1.2.snapshot", "a.1", 2), ("d.json.journal", "d.json", .some(nil)),
            ("d.snapshot", nil, nil), ("d.01.snapshot", nil, nil), ("d.x.snapshot", nil, nil), ("d.+5.snapshot", nil, nil),
            ("d.1234567890.snapshot", nil, nil), ("d.journal.corrupt-17", nil, nil), ("d.1.snapshot.tmp", nil, nil),
        ]
        for (file, name, generation) in cases {
            let owner = DeviceStateStore.owner(ofFile: file)
            #expect(owner?.name == name, "\(file)")
            if let generation { #expect(owner?.generation == generation, "\(file)") }
        }
    }

    @Test func aStateFileOfFormatOneIsReadAsASnapshotAndJournalledFromThen() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device("old")
        _ = try device.storeSet(suite: nil, key: "k", value: .int(7))
        var snapshot = try device.snapshot()
        snapshot.format = 1
        snapshot.random = nil
        snapshot.traceSequence = nil
        _ = try store()
        try JSONWire.encode(snapshot).write(to: directory.appendingPathComponent("devices/old.json"))

        let loaded = try loadAll(store())
        guard case .snapshot(let restored)? = loaded.first?.base else {
            Issue.record("expected a snapshot base")
            return
        }
        #expect(restored.suites["group.com.clarity.focus"]?["k"] == .int(7))
        #expect(try files() == ["old.journal", "old.json"])
        #expect(try loadAll(store()).first?.generation == 0, "the journal written for it reads back")
        let header = try String(contentsOf: directory.appendingPathComponent("devices/old.journal"), encoding: .utf8)
        #expect(
            header == #"{"build":"\#(JournalBuild.current)","journal":2,"snapshot":{"seq":0}}"# + "\n",
            "generation 0 is written as before generations, with the build that wrote it")

        try compact(device, generation: 1).1.finish()
        #expect(try files() == ["old.1.snapshot", "old.journal"], "its next compaction replaces the file of format 1")
    }

    /// Every device the store finds that can be read, as the daemon restores them one by one.
    private func loadAll(_ store: DeviceStateStore) -> [DeviceStateStore.StoredDevice] {
        store.storedDevices().compactMap { try? store.load($0.name, snapshots: $0.snapshots) }
    }
}
