import BuiltInApps
import Clarity
import ControlProtocol
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS
@testable import ClarityDaemon

/// What a recording refuses where the daemon cannot easily be brought to it: a history that
/// does not rebuild the device, one longer than a scenario may be, a request that failed in a
/// way no step expects, one there is no room for, and an answer the dispatcher would withhold;
/// and how it writes its scenario: as ``JSONWire`` writes the value, or laid out as a file.
@Suite struct SessionRecordingTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityd-recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    private let log = Logger(level: .error)
    private let creation = DeviceCreation(
        name: "d", app: "clarity", start: "2026-01-05T09:00:00Z", timezone: "UTC", seed: 4, clock: .virtual,
        config: DeviceConfig())

    /// Runs `method` on `device` through its route, as a restart replays it; the error it threw.
    @discardableResult
    private func run(_ method: String, _ params: JSONValue, on device: SimulatedDevice) -> DeviceError? {
        do {
            try DeviceRoutes.table[Method(rawValue: method)!]?.replay?(device, params)
            return nil
        } catch {
            return error as? DeviceError
        }
    }

    /// The device's journal holding `requests`, run on `device` (each at its time then), and
    /// its history as the store reads it back.
    private func history(_ requests: [(String, JSONValue)], on device: SimulatedDevice) throws -> (
        creation: DeviceCreation, requests: DeviceStateStore.JournalLines
    )? {
        let store = try DeviceStateStore(stateDirectory: directory, syncs: false, openJournals: 8, log: log)
        let journal = try store.create(creation)
        for (method, params) in requests {
            let at = device.mark.milliseconds
            run(method, params, on: device)
            let entry = JournalEntry(at: at, method: method, params: params, after: .init(device.mark))
            _ = try journal.append(JSONWire.bytes(entry.json))
        }
        journal.finish()
        return try store.history(of: "d")
    }

    private func device() throws -> SimulatedDevice {
        try DeviceReplay(log: log, servers: Servers(), catalog: .builtIn).make(creation, replaying: false)
    }

    /// `device` recorded after `requests`, within `budget`.
    private func recording(
        _ device: SimulatedDevice, _ requests: [(String, JSONValue)] = [], budget: ByteBudget = ByteBudget(limit: 1 << 20)
    ) throws -> SessionRecording {
        let history = try history(requests, on: device)
        return try SessionRecording(device, history: history, catalog: .builtIn, budget: budget, log: log)
    }

    private func refusal(_ body: () throws -> Any) -> JSONValue? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? RPCError)?.data
        }
    }

    /// `method` run on `device` as the daemon runs it while recorded: admitted, run, then added
    /// to the recording as it changed the device (`failing`: as if it failed so).
    private func perform(
        _ recording: SessionRecording, on device: SimulatedDevice, _ method: String, _ params: JSONValue,
        failing: DeviceError? = nil
    ) throws {
        let before = device.mark
        let admitted = try recording.admit(method: method, params: params, on: device)
        let failure = failing ?? run(method, params, on: device)
        let entry = JournalEntry(at: before.milliseconds, method: method, params: params, after: .init(device.mark))
        _ = recording.add(admitted, method: method, entry: entry, failure: failure)
    }

    @Test func aHistoryThatDoesNotRebuildTheDeviceIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let history = try history([("clock.advance", ["device": "d", "seconds": 60])], on: device)
        _ = try device.advance(seconds: 60)
        #expect(
            refusal { try SessionRecording(device, history: history, catalog: .builtIn, budget: ByteBudget(limit: 1 << 20), log: log) }
                == ["device": "d", "reason": "diverged", "method": "clock.advance", "t": 0.0])
    }

    @Test func aHistoryLongerThanAScenarioIsRefusedBeforeItIsRehearsed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let requests = Array(repeating: ("event", ["device": "d", "type": "lock"] as JSONValue), count: Scenario.maxSteps)
        let device = try device()
        let history = try history(requests, on: device)
        #expect(
            refusal { try SessionRecording(device, history: history, catalog: .builtIn, budget: ByteBudget(limit: 1 << 20), log: log) }?[
                "reason"] == "tooLong")
    }

    @Test func aRequestThatFailedAsNoStepExpectsDropsTheRecording() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let budget = ByteBudget(limit: 1 << 20)
        let recording = try recording(device, budget: budget)
        try perform(recording, on: device, "event", ["type": "lock"])
        try perform(recording, on: device, "clock.advance", ["seconds": 1.5], failing: .internalFailure("a bug"))
        #expect(recording.recordedCount == 0 && budget.total == 0, "a spoiled recording holds nothing")
        #expect(
            throws: RPCError.recording(
                device: "d", reason: "unrecordable",
                message: "device d's clock.advance at t=0 failed in a way no scenario step expects (internal failure: a bug); the recording is dropped: record.start again",
                method: "clock.advance", t: 0)
        ) {
            try recording.scenario(name: nil)
        }
    }

    /// The bytes all recordings may hold: a step past them is refused before its request runs,
    /// the history past them refuses the start, and a recording gives its bytes back when it
    /// ends.
    @Test func aStepThereIsNoRoomForIsRefusedAndTheBytesComeBack() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let budget = ByteBudget(limit: 100)
        var recording: SessionRecording? = try self.recording(device, [("event", ["device": "d", "type": "lock"])], budget: budget)
        #expect(budget.total == 15, "{\"type\":\"lock\"}")
        let contacts: JSONValue = ["type": "contacts.set", "contacts": [["id": "mom", "name": "Mom, whose name is long enough"]]]
        let full = refusal { try recording?.admit(method: "event", params: contacts, on: device) as Any }
        #expect(full == ["device": "d", "reason": "tooLarge", "method": "event", "bytes": 104, "limit": 100])
        #expect(budget.total == 15)
        let unlock = try #require(try recording?.admit(method: "event", params: ["type": "unlock"], on: device))
        #expect(budget.total == 32)
        recording?.release(unlock)
        #expect(budget.total == 15)
        #expect(refusal { try self.recording(device, [("event", contacts)], budget: budget) }?["reason"] == "tooLarge")
        #expect(budget.total == 15, "a start refused gives back what its history took")
        recording = nil
        #expect(budget.total == 0)
    }

    /// `record.stop`'s answer is the bytes ``JSONWire`` writes for its value, its scenario the one
    /// the old encoder wrote; `path`'s file is that scenario laid out as clarityctl lays it out.
    @Test func theScenarioIsWrittenAsItsValueAndAsAFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let recording = try recording(device, [("intent", ["device": "d", "name": "focus.end"])])
        try perform(recording, on: device, "clock.advance", ["seconds": 90.5])
        try perform(recording, on: device, "event", ["type": "lock", "device": "d"])
        let stopped = RecordingStopped(
            device: "d", started: recording.started, stopped: RecordingPoint(device), counts: recording.counts)
        let scenario = try recording.scenario(name: "odd \"one\"")
        let answer = try RecordingDelivery.answer(scenario, stopped, id: .number(7), answers: ByteBudget(limit: 1 << 26)).bytes
        let value = try JSONValue(parsing: Data(answer))
        #expect(try JSONWire.bytes(value) == answer)
        var bytes: [UInt8] = []
        try scenario.write(to: &bytes)
        #expect(try scenario.byteCount() == bytes.count)
        #expect(try JSONWire.bytes(value["scenario"]) == bytes)
        #expect(value["counts"] == ["history": 1, "recorded": 2, "events": 1, "intents": 0, "advances": 1, "failed": 0])
        #expect(
            value["scenario"] == [
                "name": "odd \"one\"", "device": "d", "app": "clarity", "start": "2026-01-05T09:00:00Z", "timezone": "UTC", "seed": 4,
                "config": try JSONWire.value(DeviceConfig()),
                "steps": [
                    ["intent": ["name": "focus.end", "args": [:]], "fails": ["refused": "noFocusSession"]], ["advance": 90.5],
                    ["event": ["type": "lock"]],
                ],
            ])
        let file = directory.appendingPathComponent("odd.json").path
        let state = directory.appendingPathComponent("state")
        let written = try RecordingDelivery.write(scenario, to: file, outside: state)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == ScenarioText.text(of: value["scenario"] ?? .null))
        #expect(written == text.utf8.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("odd") } == ["odd.json"])
        let nowhere = refusal { try RecordingDelivery.write(scenario, to: directory.appendingPathComponent("none/odd.json").path, outside: state) }
        #expect(nowhere?["field"] == "path")
        #expect(nowhere?["reason"]?.stringValue?.hasSuffix("No such file or directory; the recording goes on") == true)
        try FileManager.default.createDirectory(at: state.appendingPathComponent("devices"), withIntermediateDirectories: true)
        let journal = state.appendingPathComponent("devices/d.journal").path
        #expect(refusal { try RecordingDelivery.write(scenario, to: journal, outside: state) }?["reason"]?.stringValue?.contains("inside clarityd's state directory") == true)
    }

    /// An answer the dispatcher would withhold — the answers clients have not read would pass
    /// their cap — is refused before the recording ends.
    @Test func anAnswerThatWouldBeWithheldIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try device()
        let recording = try recording(device, budget: ByteBudget(limit: 4 << 20))
        let contacts: JSONValue = [
            "type": "contacts.set",
            "contacts": .array((0..<30_000).map { ["id": .string("c\($0)"), "name": .string("Contact number \($0)")] }),
        ]
        try perform(recording, on: device, "event", contacts)
        let stopped = RecordingStopped(
            device: "d", started: recording.started, stopped: RecordingPoint(device), counts: recording.counts)
        let answers = ByteBudget(limit: RequestDispatcher.maxAnswerBytes)
        answers.charge(from: 0, to: RequestDispatcher.maxAnswerBytes - 100_000)
        let refused = refusal { try RecordingDelivery.answer(try recording.scenario(name: nil), stopped, id: nil, answers: answers) }
        #expect(refused?["reason"] == "tooLarge")
        #expect((refused?["bytes"]?.intValue ?? 0) > RequestDispatcher.budgetedAnswerBytes)
        #expect(refused?["limit"] == .int(RequestDispatcher.maxAnswerBytes))
        answers.charge(from: RequestDispatcher.maxAnswerBytes - 100_000, to: 0)
        _ = try RecordingDelivery.answer(try recording.scenario(name: nil), stopped, id: nil, answers: answers)
    }
}
