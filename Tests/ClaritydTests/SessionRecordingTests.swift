import BuiltInApps
import Clarity
import ControlProtocol
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS
@testable import ClarityDaemon

/// What a recording refuses where the daemon cannot easily be brought to it: a history that
/// does not rebuild the device, one longer than a scenario may be, and a request that failed
/// in a way no step expects.
@Suite struct SessionRecordingTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityd-recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    private let log = Logger(level: .error)
    private let creation = DeviceCreation(
        name: "d", app: "clarity", start: "2026-01-05T09:00:00Z", timezone: "UTC", seed: 4, clock: .virtual,
        config: DeviceConfig())

    /// The device's journal holding `requests` (method and params, at t=0), and its history as
    /// the store reads it back.
    private func history(_ requests: [(String, JSONValue)]) throws -> (
        creation: DeviceCreation, requests: DeviceStateStore.JournalLines
    )? {
        let store = try DeviceStateStore(stateDirectory: directory, syncs: false, openJournals: 8, log: log)
        let journal = try store.create(creation)
        let mark = DeviceMark(sequence: 0, milliseconds: 0, random: 0, dataRevision: 0, configRevision: 0)
        for (method, params) in requests {
            let entry = JournalEntry(at: 0, method: method, params: params, after: .init(mark))
            _ = try journal.append(JSONWire.bytes(entry.json))
        }
        journal.finish()
        return try store.history(of: "d")
    }

    private func refusal(_ body: () throws -> SessionRecording) -> JSONValue? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? RPCError)?.data
        }
    }

    @Test func aHistoryThatDoesNotRebuildTheDeviceIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try DeviceReplay(log: log, servers: Servers(), catalog: .builtIn).make(creation, replaying: false)
        _ = try device.advance(seconds: 120)
        let history = try history([("clock.advance", ["device": "d", "seconds": 60])])
        #expect(
            refusal { try SessionRecording(device, history: history, replay: DeviceReplay(log: log, servers: Servers(), catalog: .builtIn)) }
                == ["device": "d", "reason": "diverged", "method": "clock.advance", "t": 0.0])
    }

    @Test func aHistoryLongerThanAScenarioIsRefusedBeforeItIsRehearsed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try DeviceReplay(log: log, servers: Servers(), catalog: .builtIn).make(creation, replaying: false)
        let history = try history(Array(repeating: ("event", ["device": "d", "type": "lock"]), count: Scenario.maxSteps))
        #expect(refusal { try SessionRecording(device, history: history, replay: DeviceReplay(log: log, servers: Servers(), catalog: .builtIn)) }?["reason"] == "tooLong")
    }

    @Test func aRequestThatFailedAsNoStepExpectsDropsTheRecording() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try DeviceReplay(log: log, servers: Servers(), catalog: .builtIn).make(creation, replaying: false)
        var recording = try SessionRecording(device, history: try history([]), replay: DeviceReplay(log: log, servers: Servers(), catalog: .builtIn))
        recording.add(method: "event", params: ["type": "lock"], failure: nil, at: 0)
        recording.add(method: "clock.advance", params: ["seconds": 5], failure: .internalFailure("a bug"), at: 1500)
        recording.add(method: "store.set", params: ["key": "k", "value": 1], failure: nil, at: 2000)
        #expect(recording.recorded.count == 1)
        #expect(
            throws: RPCError.recording(
                device: "d", reason: "unrecordable",
                message: "device d's clock.advance at t=1.5 failed in a way no scenario step expects (internal failure: a bug); the recording is dropped: record.start again",
                method: "clock.advance", t: 1.5)
        ) {
            try recording.stop(device, name: nil)
        }
    }
}
