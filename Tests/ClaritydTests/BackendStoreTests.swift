import ControlProtocol
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS
@testable import ClarityDaemon
import ThePhoneBackend

/// The Phone's backends on disk (docs/apps/thephone-backend.md, "Hosted in the daemon"): a
/// snapshot and the journal of operations after it give the backend back byte for byte, across
/// compactions, and a torn last line is left out.
@Suite struct ServerStoreTests {
    private let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityd-backends-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    private let log = Logger(level: .error)
    private static let start: Int64 = 1_767_603_600_000

    private func store(compactAfter: Int, compactAfterBytes: Int = 1 << 20) throws -> ServerStore {
        try ServerStore(
            stateDirectory: stateDirectory, registrations: [.thePhoneBackend], syncs: false, log: log, compactAfter: compactAfter, compactAfterBytes: compactAfterBytes)
    }

    /// The backend's state, encoded (what a snapshot holds of it, the undelivered pushes aside).
    private func bytes(_ backend: ServerHost) throws -> [UInt8] { try JSONWire.bytes(backend.read(PhoneBackend.self) { $0 }) }

    /// The Phone's backends' directory.
    private func directory(_ store: ServerStore) -> URL { stateDirectory.appendingPathComponent("backends") }

    private func journal(_ store: ServerStore, _ generation: Int = 0) -> URL {
        stateDirectory.appendingPathComponent("backends").appendingPathComponent("default.\(generation).journal")
    }

    /// Writes `text` at the end of the default backend's journal, as damage would.
    private func append(_ text: String, toTheJournalOf store: ServerStore, generation: Int = 0) throws {
        let handle = try FileHandle(forWritingTo: journal(store, generation))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// Replaces the line of the first journal that holds `marker` with `line` (a device's
    /// request is marked by its time: `"now":<ms>`; its body is base64).
    private func replaceTheLine(holding marker: String, with line: String, inTheJournalOf store: ServerStore) throws {
        let text = try String(contentsOf: journal(store), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(marker) })
        lines[index] = line
        try lines.joined(separator: "\n").write(to: journal(store), atomically: true, encoding: .utf8)
    }

    private func files(_ store: ServerStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: stateDirectory.appendingPathComponent("backends").path).sorted()
    }

    /// The numbers of the events alice's backend holds.
    private func events(_ backend: ServerHost?) -> [Int] {
        backend?.read(PhoneBackend.self) { (try? $0.events(of: "alice"))?.compactMap { Int($0.clientId.suffix(12)) } ?? [] } ?? []
    }

    /// A phone signs up, then syncs `count` locks a minute apart, saving after each request.
    private func drive(_ store: ServerStore, locks count: Int) throws {
        let backend = store.servers.instance(of: .thePhoneBackend, named: "default", now: Self.start)
        let phone = DeviceConnection(servers: [backend], caller: ServerCaller(device: "alice", timezone: "UTC", platform: "ios"))
        _ = phone.exchange(NetworkRequest(url: "https://api.thephone.app/auth/register", httpMethod: "POST"), at: Self.start)
        try store.saveChanged()
        for minute in 1...count { try sync(store, minute: minute) }
    }

    /// Alice's phone syncs lock number `minute`, `minute` minutes after the start; the store saves.
    private func sync(_ store: ServerStore, minute: Int) throws {
        let backend = store.servers.instance(of: .thePhoneBackend, named: "default", now: Self.start)
        let phone = DeviceConnection(servers: [backend], caller: ServerCaller(device: "alice", timezone: "UTC", platform: "ios"))
        let at = Self.start + Int64(minute) * 60_000
        let body = #"{"events":[{"id":"\#(Self.event(minute))","eventType":"lock","timestamp":\#(at),"source":"shortcut"}],"lastSync":0,"clientTime":\#(at)}"#
        let answer = phone.exchange(
            NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: Data(body.utf8)), at: at)
        #expect(answer?.statusCode == 200)
        try store.saveChanged()
    }

    private static func event(_ number: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", number) }
    private static func now(minute: Int) -> String { "\"now\":\(start + Int64(minute) * 60_000)" }

    @Test func aSnapshotAndItsJournalGiveTheBackendBackAcrossCompactions() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 4)
        try drive(first, locks: 10)
        let saved = try bytes(first.servers.instance(of: .thePhoneBackend, named: "default", now: 0))
        #expect(
            try files(first) == ["default.2.journal", "default.2.snapshot", "default.3.journal", "default.json"],
            "three compactions of 12 operations, 4 a journal; the generation before the snapshot is kept")

        let reread = try store(compactAfter: 4)
        let backend = try #require(reread.servers.existing("default", of: "thephone"))
        #expect(try bytes(backend) == saved)
        #expect(backend.read(PhoneBackend.self) { (try? $0.events(of: "alice"))?.count } == 10)
    }

    /// Lines far under `compactAfter` still compact once the journal holds as many bytes as its
    /// snapshot (and the minimum): the journal on disk stays within about the snapshot's size.
    @Test func aJournalIsCompactedOnceItOutgrowsItsSnapshot() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 10_000, compactAfterBytes: 4096)
        try drive(first, locks: 40)
        let saved = try bytes(first.servers.instance(of: .thePhoneBackend, named: "default", now: 0))
        let journal = try #require(try files(first).last { $0.hasSuffix(".journal") })
        #expect(journal != "default.0.journal", "42 lines of about 500 bytes outgrow a 4 KiB minimum and the snapshot")
        let size = { (name: String) in
            try #require(try FileManager.default.attributesOfItem(atPath: directory(first).appendingPathComponent(name).path)[.size] as? Int)
        }
        #expect(try size(journal) < max(4096, try size("default.json")))

        let backend = try #require(try store(compactAfter: 10_000, compactAfterBytes: 4096).servers.existing("default", of: "thephone"))
        #expect(try bytes(backend) == saved)
        #expect(backend.read(PhoneBackend.self) { (try? $0.events(of: "alice"))?.count } == 40)
    }

    /// A request refused before it changes anything (a signed-out phone's sync, an unknown
    /// route, a body that does not decode) adds no line of its own, only the clock's move to
    /// its time (one short line, ``ServerOperation/clock(now:)``); one that changed the backend
    /// adds its line, and a restart gives the same backend back.
    @Test func aRequestRefusedAtTheDoorIsNotJournalled() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 2)
        let text = { try String(contentsOf: journal(first), encoding: .utf8).split(separator: "\n") }
        let lines = { try text().count }
        let before = try lines()
        #expect(before == 4, "the creation, the sign-up and the two syncs")
        let backend = first.servers.instance(of: .thePhoneBackend, named: "default", now: Self.start)
        let stranger = DeviceConnection(servers: [backend], caller: ServerCaller(device: "bob", timezone: "UTC", platform: "android"))
        let at = Self.start + 3 * 60_000
        let body = Data(#"{"events":[],"lastSync":0,"clientTime":\#(at)}"#.utf8)
        let refusals = [
            NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: body),
            NetworkRequest(url: "https://api.thephone.app/nowhere", httpMethod: "GET"),
        ]
        #expect(refusals.map { stranger.exchange($0, at: at)?.statusCode } == [401, 404])
        let alice = DeviceConnection(servers: [backend], caller: ServerCaller(device: "alice", timezone: "UTC", platform: "ios"))
        let garbled = NetworkRequest(url: "https://api.thephone.app/events/sync", httpMethod: "POST", httpBody: Data("{".utf8))
        #expect(alice.exchange(garbled, at: at)?.statusCode == 400)
        try first.saveChanged()
        #expect(try text().dropFirst(before) == [#"{"clock":{"now":\#(at)}}"#], "nothing refused at the door was written")

        let joined = #"{"name":"Team","description":"","isPrivate":false}"#
        let group = NetworkRequest(url: "https://api.thephone.app/groups", httpMethod: "POST", httpBody: Data(joined.utf8))
        #expect(alice.exchange(group, at: at)?.statusCode == 201)
        try first.saveChanged()
        #expect(try lines() == before + 2)
        let saved = try bytes(first.servers.instance(of: .thePhoneBackend, named: "default", now: 0))
        #expect(try bytes(try #require(try store(compactAfter: 100).servers.existing("default", of: "thephone"))) == saved)
    }

    @Test func aTornLastLineIsLeftOut() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 3)
        try append(#"{"serve":{"device":"alice","#, toTheJournalOf: first)
        let backend = try #require(try store(compactAfter: 100).servers.existing("default", of: "thephone"))
        #expect(backend.read(PhoneBackend.self) { (try? $0.events(of: "alice"))?.count } == 3)
    }

    /// A backend file whose clock is at the edge of Int64 is damaged: it is moved aside, not
    /// run (the jobs' first times overflowed and trapped the restart), and the backend rebuilt
    /// from its journal; a journal line moving the clock there ends the replay, as a damaged
    /// line does. Found by fuzz-backend.
    @Test func aBackendAtNoTimeIsMovedAsideAndALineAtNoTimeEndsTheReplay() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 2)
        try append(
            "{\"tick\":{\"device\":\"alice\",\"now\":\(Int64.max)}}\n{\"tick\":{\"device\":\"alice\",\"now\":\(Self.start + 3_600_000)}}\n",
            toTheJournalOf: first)
        let replayed = try #require(try store(compactAfter: 100).servers.existing("default", of: "thephone"))
        #expect(replayed.clock == Self.start + 2 * 60_000, "the replay ended at the line at no time")

        let snapshot = directory(first).appendingPathComponent("default.json")
        let text = try String(contentsOf: snapshot, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: "\"clock\":\(Self.start)", with: "\"clock\":\(Int64.min)")
        #expect(damaged != text)
        try damaged.write(to: snapshot, atomically: true, encoding: .utf8)
        let reread = try store(compactAfter: 100)
        #expect(events(reread.servers.existing("default", of: "thephone")) == [1, 2], "rebuilt from the journal, which starts at the creation")
        #expect(try files(reread).contains { $0.hasPrefix("default.json.corrupt-") })
    }

    // MARK: - Damage (issue 38)

    /// A whole line that does not read ends the replay there; the file is kept aside whole and
    /// cut back to the lines before it, so what is saved after the restart survives the next
    /// one (it was appended after the damaged line, which every later restart stopped at: event
    /// 7 was lost). A second restart before anything is saved (a `kill -9` right after the
    /// repair) finds the same backend.
    @Test func aDamagedLineIsKeptAsideAndNothingIsAppendedAfterIt() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 6)
        try replaceTheLine(holding: Self.now(minute: 3), with: "{garbage", inTheJournalOf: first)

        let repaired = try store(compactAfter: 100)
        #expect(events(repaired.servers.existing("default", of: "thephone")) == [1, 2], "the replay ends at the damaged line")
        #expect(try files(repaired).contains { $0.hasPrefix("default.0.journal.corrupt-") }, "the whole file is kept aside")
        #expect(events(try store(compactAfter: 100).servers.existing("default", of: "thephone")) == [1, 2])

        let again = try store(compactAfter: 100)
        try sync(again, minute: 7)
        #expect(events(try store(compactAfter: 100).servers.existing("default", of: "thephone")) == [1, 2, 7])
    }

    /// A line that reads but cannot have run (a raw sync of a user the backend does not have:
    /// one is journalled only once it succeeded) is damage too: the replay ends there, not
    /// after skipping it.
    @Test func anOperationThatCannotApplyEndsTheReplay() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 4)
        try replaceTheLine(
            holding: Self.now(minute: 3), with: #"{"sync":{"user":"nobody","events":[],"lastSync":0}}"#, inTheJournalOf: first)
        let reread = try store(compactAfter: 100)
        #expect(events(reread.servers.existing("default", of: "thephone")) == [1, 2])
        #expect(try files(reread).contains { $0.hasPrefix("default.0.journal.corrupt-") })
    }

    /// A journal that is missing is reported, and saving goes on: the next save made every
    /// request of the backend fail (its journal could not be opened).
    @Test func aMissingJournalIsReplacedAndSavingGoesOn() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 4)
        try drive(first, locks: 6)
        let current = try #require(try files(first).last { $0.hasSuffix(".journal") })
        try FileManager.default.removeItem(at: directory(first).appendingPathComponent(current))

        let reread = try store(compactAfter: 4)
        let restored = events(reread.servers.existing("default", of: "thephone"))
        try sync(reread, minute: 7)
        #expect(events(try store(compactAfter: 4).servers.existing("default", of: "thephone")) == restored + [7])
    }

    /// A snapshot that does not read — not JSON, valid JSON but not a backend, a backend of
    /// another name, or gone — is moved aside (when there) and the backend rebuilt from the
    /// files before it: the journal that starts at its creation, or, after compactions, the
    /// snapshot before it and the journals since. Saving goes on from there, and a restart
    /// finds it all (the first save after the restart wrote over the journal, truncating it to
    /// nothing: every user gone).
    @Test(arguments: ["{nope", "{}", "other", "deleted"], [1, 4])
    func anUnreadableSnapshotIsRebuiltFromTheJournal(damage: String, compactAfter: Int) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: compactAfter == 1 ? 100 : compactAfter)
        try drive(first, locks: 10)
        let saved = try bytes(try #require(first.servers.existing("default", of: "thephone")))
        let snapshot = directory(first).appendingPathComponent("default.json")
        switch damage {
        case "deleted": try FileManager.default.removeItem(at: snapshot)
        case "other":
            let text = try String(contentsOf: snapshot, encoding: .utf8)
            try text.replacingOccurrences(of: #""name":"default""#, with: #""name":"other""#).write(to: snapshot, atomically: true, encoding: .utf8)
        default: try Data(damage.utf8).write(to: snapshot)
        }

        let rebuilt = try store(compactAfter: 100)
        let backend = try #require(rebuilt.servers.existing("default", of: "thephone"))
        #expect(try bytes(backend) == saved)
        let movedAside = try files(rebuilt).contains { $0.hasPrefix("default.json.corrupt-") }
        #expect(movedAside == (damage != "deleted"))
        try sync(rebuilt, minute: 11)
        #expect(events(try store(compactAfter: 100).servers.existing("default", of: "thephone")) == Array(1...11))
    }

    /// A snapshot that reads but names a journal that is not there (valid JSON, wrong) is not
    /// taken: the backend is rebuilt from the snapshot before it and the journals since, and
    /// the wrong one is moved aside, not written over.
    @Test func aSnapshotNamingAJournalThatIsNotThereIsNotTaken() throws {
        try expectTheSnapshotNotTaken(locks: 10, afterReplacing: #""journal":3"#, with: #""journal":7"#)
    }

    /// A snapshot that reads but is wrong — alice signed out of her phone — is found out by the
    /// first request of the journal it then answers otherwise (401, where the journal says
    /// 200): the backend is rebuilt from the snapshot before it and the journals since.
    @Test func aSnapshotThatReadsButIsWrongIsFoundOutByItsJournal() throws {
        try expectTheSnapshotNotTaken(locks: 9, afterReplacing: #""devices":["alice"]"#, with: #""devices":[]"#)
    }

    /// Alice's `locks`, compacted every 4 operations; `default.json` then changed, replacing
    /// `text` with `wrong`: two restarts give the backend back as it was, the snapshot moved aside.
    private func expectTheSnapshotNotTaken(locks: Int, afterReplacing text: String, with wrong: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 4)
        try drive(first, locks: locks)
        let saved = try bytes(try #require(first.servers.existing("default", of: "thephone")))
        let snapshot = directory(first).appendingPathComponent("default.json")
        let right = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(right.contains(text))
        try right.replacingOccurrences(of: text, with: wrong).write(to: snapshot, atomically: true, encoding: .utf8)

        let rebuilt = try store(compactAfter: 4)
        #expect(try bytes(try #require(rebuilt.servers.existing("default", of: "thephone"))) == saved)
        #expect(try files(rebuilt).contains { $0.hasPrefix("default.json.corrupt-") })
        #expect(try bytes(try #require(try store(compactAfter: 4).servers.existing("default", of: "thephone"))) == saved)
    }

    /// A crash at any point of a compaction leaves files a restart reads whole: after the new
    /// journal was made, and after `<name>.json` was kept as the previous snapshot too.
    @Test(arguments: [false, true]) func aCompactionCutShortByACrashLosesNothing(afterKeepingTheSnapshot: Bool) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 4)
        try drive(first, locks: 10)
        let saved = try bytes(try #require(first.servers.existing("default", of: "thephone")))
        #expect(try files(first).contains("default.3.journal"))
        try Data().write(to: journal(first, 4))
        if afterKeepingTheSnapshot {
            try FileManager.default.copyItem(
                at: directory(first).appendingPathComponent("default.json"), to: directory(first).appendingPathComponent("default.3.snapshot"))
        }
        let restarted = try store(compactAfter: 4)
        #expect(try bytes(try #require(restarted.servers.existing("default", of: "thephone"))) == saved)
        try sync(restarted, minute: 11)
        #expect(events(try store(compactAfter: 4).servers.existing("default", of: "thephone")) == Array(1...11))
    }

    /// With neither a snapshot that reads nor a journal that starts at the creation (at a time
    /// a backend can have), the backend cannot be rebuilt: every file is moved aside, none
    /// deleted or written over, and a new backend of the name starts afresh.
    @Test(arguments: ["{garbage", #"{"created":{"now":9223372036854775807}}"#])
    func aBackendThatCannotBeRebuiltIsMovedAsideWhole(creation: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 2)
        try Data("{nope".utf8).write(to: directory(first).appendingPathComponent("default.json"))
        try replaceTheLine(holding: "created", with: creation, inTheJournalOf: first)

        let reread = try store(compactAfter: 100)
        #expect(reread.servers.existing("default", of: "thephone") == nil)
        try drive(reread, locks: 1)
        let names = try files(reread)
        #expect(names.contains { $0.hasPrefix("default.json.corrupt-") } && names.contains { $0.hasPrefix("default.0.journal.corrupt-") })
        #expect(events(try store(compactAfter: 100).servers.existing("default", of: "thephone")) == [1])
    }

    // MARK: - The clock (issue 38)

    /// The clock moved by ticks that ran no job to any effect survives a restart, and a request
    /// served after such a move runs at the same time when replayed: the restart left the clock
    /// at the last journalled operation's time, and replayed a later sync at that time.
    @Test func theClockAndWhatRanAtItSurviveARestart() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let first = try store(compactAfter: 100)
        try drive(first, locks: 1)
        let backend = try #require(first.servers.existing("default", of: "thephone"))
        let later = Self.start + 2 * 3_600_000
        _ = DeviceConnection(servers: [backend], caller: ServerCaller(device: "alice", timezone: "UTC", platform: "ios")).tick(at: later)
        #expect(backend.clock == later)
        try first.saveChanged()
        #expect(try #require(try store(compactAfter: 100).servers.existing("default", of: "thephone")).clock == later)

        try sync(first, minute: 2)
        let saved = try bytes(backend)
        #expect(backend.read(PhoneBackend.self) { (try? $0.events(of: "alice"))?.last?.createdAt } == later, "served at the backend's clock")
        #expect(try bytes(try #require(try store(compactAfter: 100).servers.existing("default", of: "thephone"))) == saved)
    }
}
