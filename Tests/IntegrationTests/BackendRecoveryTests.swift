import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Phone's backend across restarts and damage (issue 38): a damaged journal line is
/// reported, kept aside and never written after; a snapshot that cannot be read is rebuilt from
/// the journal; the backend's clock is where it was.
@Suite struct BackendRecoveryTests {
    /// 2026-01-05T09:00:00Z, a device's default start, in milliseconds.
    private static let nine: Int64 = 1_767_603_600_000
    private static let hour: Int64 = 3_600_000

    private func event(_ number: Int, at timestamp: Int64) -> JSONValue {
        let id = String(format: "00000000-0000-4000-8000-%012d", number)
        return ["id": .string(id), "eventType": "lock", "timestamp": .int(Int(timestamp)), "source": "manual"]
    }

    /// A raw `backend.sync` of lock `number` for alice, stamped `timestamp`.
    private func sync(_ number: Int, at timestamp: Int64 = nine, on daemon: DaemonProcess) throws {
        _ = try daemon.call("backend.sync", ["user": "alice", "events": [event(number, at: timestamp)]])
    }

    /// The numbers of alice's events on the backend, with their times.
    private func events(on daemon: DaemonProcess) throws -> [String] {
        try daemon.call("backend.events", ["user": "alice"]).arrayValue?.map {
            "\(Int($0["clientId"]?.stringValue?.suffix(12) ?? "") ?? 0) \($0["time"]?.stringValue ?? "")"
        } ?? []
    }

    private func backendFiles(_ daemon: DaemonProcess) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/backends").sorted()
    }

    /// The line of sync 2 (after the creation, the sign-up and sync 1) replaced with `{garbage`:
    /// the restart says so at error and keeps the file aside; what is synced after it survives
    /// the next restarts (it was appended after the garbage, and lost at every restart after).
    @Test func aDamagedJournalLineIsReportedAndWhatFollowsTheRepairSurvives() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        for number in 1...3 { try sync(number, on: daemon) }
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let journal = URL(fileURLWithPath: daemon.stateDirectory + "/backends/default.0.journal")
        var lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        let second = try #require(lines.firstIndex { $0.contains("000000000002") })
        lines[second] = "{garbage"
        try (lines.joined(separator: "\n") + "\n").write(to: journal, atomically: true, encoding: .utf8)

        try daemon.start()
        #expect(daemon.log.contains("backend default: journal line \(second + 1) of \(lines.count) is unreadable"), "\(daemon.log)")
        #expect(try backendFiles(daemon).contains { $0.hasPrefix("default.0.journal.corrupt-") })
        #expect(try events(on: daemon) == ["1 2026-01-05T09:00:00.000Z"])
        // Killed between the repair and the next append: the next start finds the repaired file.
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try events(on: daemon) == ["1 2026-01-05T09:00:00.000Z"])
        try sync(4, on: daemon)
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        #expect(try events(on: daemon) == ["1 2026-01-05T09:00:00.000Z", "4 2026-01-05T09:00:00.000Z"])
    }

    /// `default.json` replaced with `{nope`: it is moved aside and the backend rebuilt from its
    /// journal, users, events and all; its devices keep reaching their accounts (the first save
    /// after the restart truncated the journal to nothing: every user gone, devices got 401).
    @Test func anUnreadableBackendSnapshotIsRebuiltFromTheJournal() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        for number in 1...2 { try sync(number, on: daemon) }
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        try Data("{nope".utf8).write(to: URL(fileURLWithPath: daemon.stateDirectory + "/backends/default.json"))

        try daemon.start()
        #expect(daemon.log.contains("backend default: rebuilt from"), "\(daemon.log)")
        #expect(try daemon.call("backend.users", [:]).arrayValue?.map { $0["username"] } == ["alice"])
        _ = try daemon.call("clock.advance", ["device": "alice", "seconds": 60])
        try sync(3, on: daemon)
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        #expect(try daemon.call("backend.users", [:]).arrayValue?.map { $0["username"] } == ["alice"])
        #expect(try events(on: daemon).map { $0.prefix(1) } == ["1", "2", "3"])
    }

    /// A device two hours on, then the daemon ends (`kill -9` or SIGTERM): the backend's clock
    /// reads 11:00 after the restart, and an event the device stamps 11:00 is stored at 11:00
    /// (the clock read 09:00, and the event was clamped to it as one from the future).
    @Test(arguments: [SIGKILL, SIGTERM])
    func theBackendsClockIsWhereItWasAfterARestart(signal: Int32) throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "alice", "app": "thephone"])
        _ = try daemon.call("clock.advance", ["device": "alice", "seconds": 7200])
        #expect(try daemon.call("backend.now", [:])["time"] == "2026-01-05T11:00:00.000Z")
        daemon.kill(signal)
        _ = daemon.waitForExit()

        try daemon.start()
        #expect(try daemon.call("backend.now", [:])["time"] == "2026-01-05T11:00:00.000Z")
        try sync(1, at: Self.nine + 2 * Self.hour, on: daemon)
        #expect(try events(on: daemon) == ["1 2026-01-05T11:00:00.000Z"])
    }
}
