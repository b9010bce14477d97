import ControlProtocol
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS
@testable import ClarityDaemon

/// The Phone's backends on disk (docs/apps/thephone-backend.md, "Hosted in the daemon"): a
/// snapshot and the journal of operations after it give the backend back byte for byte, across
/// compactions, and a torn last line is left out.
@Suite struct BackendStoreTests {
    private let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityd-backends-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    private let log = Logger(level: .error)
    private static let start: Int64 = 1_767_603_600_000

    private func store(compactAfter: Int, compactAfterBytes: Int = 1 << 20) throws -> BackendStore {
        try BackendStore(
            stateDirectory: stateDirectory, syncs: false, log: log, compactAfter: compactAfter, compactAfterBytes: compactAfterBytes)
    }

    /// The backend as a snapshot would hold it (every operation is saved by then: none is dropped).
    private func bytes(_ backend: BackendHost) throws -> [UInt8] { try JSONWire.bytes(backend.snapshotTakingOperations()) }

    /// Writes `text` at the end of the default backend's first journal, as damage would.
    private func append(_ text: String, toTheJournalOf store: BackendStore) throws {
        let handle = try FileHandle(forWritingTo: store.directory.appendingPathComponent("default.0.journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// A phone signs up, then syncs `count` locks a minute apart, saving after each request.
    private func drive(_ store: BackendStore, locks count: Int) throws {
        let backend = store.servers.backend(named: "default", now: Self.start)
        let phone = DeviceConnection(backend: backend, device: "alice", timezone: "UTC", platform: .ios)
        _ = phone.exchange(NetworkRequest(url: "https://api.thephone.app/auth/register", httpMethod: "POST"), at: Self.start)
        try store.saveChanged()
        for minute in 1...count {
            let at = Self.start + Int64(minute) * 60_000
            let event = String(format: "00000000-0000-4000-8000-%012d", minute)
            let body = #"{"events":[{"id":"\#(event)","eventType":"lock","timestamp":\#(at),"source":"shortcut"}],"lastSync":0,"clientTime":\#(at)}"#
            let answer = phone.exchange(
                NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: Data(body.utf8)), at: at)
            #expect(answer?.statusCode == 200)
            try store.saveChanged()
        }
    }

    @Test func aSnapshotAndItsJournalGiveTheBackendBackAcrossCompactions() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 4)
        try drive(first, locks: 10)
        let saved = try bytes(first.servers.backend(named: "default", now: 0))
        let files = try FileManager.default.contentsOfDirectory(atPath: first.directory.path).sorted()
        #expect(files == ["default.2.journal", "default.json"], "two compactions: 11 operations, 4 per journal")

        let reread = try store(compactAfter: 4)
        let backend = try #require(reread.servers.existing("default"))
        #expect(try bytes(backend) == saved)
        #expect(backend.read { (try? $0.events(of: "alice"))?.count } == 10)
    }

    /// Lines far under `compactAfter` still compact once the journal holds as many bytes as its
    /// snapshot (and the minimum): the journal on disk stays within about the snapshot's size.
    @Test func aJournalIsCompactedOnceItOutgrowsItsSnapshot() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 10_000, compactAfterBytes: 4096)
        try drive(first, locks: 40)
        let saved = try bytes(first.servers.backend(named: "default", now: 0))
        let files = try FileManager.default.contentsOfDirectory(atPath: first.directory.path).sorted()
        let journal = try #require(files.first { $0.hasSuffix(".journal") })
        #expect(journal != "default.0.journal", "41 lines of about 500 bytes outgrow a 4 KiB minimum and the snapshot")
        let size = { (name: String) in
            try #require(try FileManager.default.attributesOfItem(atPath: first.directory.appendingPathComponent(name).path)[.size] as? Int)
        }
        #expect(try size(journal) < max(4096, try size("default.json")))

        let backend = try #require(try store(compactAfter: 10_000, compactAfterBytes: 4096).servers.existing("default"))
        #expect(try bytes(backend) == saved)
        #expect(backend.read { (try? $0.events(of: "alice"))?.count } == 40)
    }

    /// A request refused before it changes anything (a signed-out phone's sync, an unknown
    /// route, a body that does not decode) adds no line; one that changed the backend does, and
    /// a restart gives the same backend back.
    @Test func aRequestRefusedAtTheDoorIsNotJournalled() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 2)
        let journal = first.directory.appendingPathComponent("default.0.journal")
        let lines = { try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").count }
        let before = try lines()
        #expect(before == 2, "the two syncs after the sign-up's snapshot")
        let backend = first.servers.backend(named: "default", now: Self.start)
        let stranger = DeviceConnection(backend: backend, device: "bob", timezone: "UTC", platform: .android)
        let at = Self.start + 3 * 60_000
        let body = Data(#"{"events":[],"lastSync":0,"clientTime":\#(at)}"#.utf8)
        let refusals = [
            NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: body),
            NetworkRequest(url: "https://api.thephone.app/nowhere", httpMethod: "GET"),
        ]
        #expect(refusals.map { stranger.exchange($0, at: at)?.statusCode } == [401, 404])
        let alice = DeviceConnection(backend: backend, device: "alice", timezone: "UTC", platform: .ios)
        let garbled = NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: Data("{".utf8))
        #expect(alice.exchange(garbled, at: at)?.statusCode == 400)
        try first.saveChanged()
        #expect(try lines() == before, "nothing refused at the door was written")

        let joined = #"{"name":"Team","description":"","isPrivate":false}"#
        let group = NetworkRequest(url: "https://api.thephone.app/groups", httpMethod: "POST", httpBody: Data(joined.utf8))
        #expect(alice.exchange(group, at: at)?.statusCode == 201)
        try first.saveChanged()
        #expect(try lines() == before + 1)
        let saved = try bytes(first.servers.backend(named: "default", now: 0))
        #expect(try bytes(try #require(try store(compactAfter: 100).servers.existing("default"))) == saved)
    }

    @Test func aTornLastLineIsLeftOut() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 3)
        try append(#"{"serve":{"device":"alice","#, toTheJournalOf: first)
        let backend = try #require(try store(compactAfter: 100).servers.existing("default"))
        #expect(backend.read { (try? $0.events(of: "alice"))?.count } == 3)
    }

    /// A backend file whose clock is at the edge of Int64 is damaged: it is moved aside, not
    /// run (the jobs' first times overflowed and trapped the restart); a journal line moving
    /// the clock there ends the replay, as a torn line does. Found by fuzz-backend.
    @Test func aBackendAtNoTimeIsMovedAsideAndALineAtNoTimeEndsTheReplay() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 2)
        try append(
            "{\"tick\":{\"device\":\"alice\",\"now\":\(Int64.max)}}\n{\"tick\":{\"device\":\"alice\",\"now\":\(Self.start + 3_600_000)}}\n",
            toTheJournalOf: first)
        let replayed = try #require(try store(compactAfter: 100).servers.existing("default"))
        #expect(replayed.read(\.clock) == Self.start + 2 * 60_000, "the replay ended at the line at no time")

        let snapshot = first.directory.appendingPathComponent("default.json")
        let text = try String(contentsOf: snapshot, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: "\"clock\":\(Self.start)", with: "\"clock\":\(Int64.min)")
        #expect(damaged != text)
        try damaged.write(to: snapshot, atomically: true, encoding: .utf8)
        let reread = try store(compactAfter: 100)
        #expect(reread.servers.existing("default") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: reread.directory.path).contains { $0.hasPrefix("default.json.corrupt-") })
    }
}
