import ControlProtocol
import DaemonTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Acknowledged writes survive `kill -9`; a restart is invisible; a corrupt state file is moved
/// aside, not wiped.
@Suite struct DurabilityTests {
    /// In every durability mode: `everysec` and `write` answer before the sync, but after the
    /// write(2) that a `kill -9` cannot undo.
    @Test(arguments: ["fsync", "everysec", "write"])
    func acknowledgedWritesSurviveKillNine(durability: String) throws {
        let daemon = try DaemonProcess(config: ["durability": .string(durability)])
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "homeNetworkSSIDs", "value": ["Home", "Cabin"]])
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call("event", ["type": "app.open", "app": "com.burbn.instagram"])
        _ = try daemon.call("clock.advance", ["seconds": 600])
        _ = try daemon.call("device.create", ["device": "second", "seed": 3])
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "homeNetworkSSIDs"])["value"] == ["Home", "Cabin"])
        #expect(try daemon.call("store.get", ["key": "frictionLevel"])["value"] == 2)
        #expect(try daemon.call("shields.get")["stores"]?["friction"]?["applications"] == ["com.burbn.instagram"])
        #expect(try daemon.call("clock.now")["t"] == 600)
        #expect(try daemon.call("device.list").arrayValue?.count == 2)
        #expect(try daemon.call("activity.list").arrayValue?.first?["name"] == "clarity_friction")
    }

    @Test func corruptStateFileIsMovedAsideAndReported() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "k", "value": 1])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let file = daemon.stateDirectory + "/devices/default.journal"
        try Data("{ this is not json".utf8).write(to: URL(fileURLWithPath: file))

        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == .null)
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains { $0.hasPrefix("default.journal.corrupt-") })
        #expect(daemon.log.contains("moved aside"))
    }

    /// `advance 2h`, `kill -9`, restart: the time and the usage it accrued are still there.
    @Test func anAcknowledgedAdvanceSurvivesKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("event", ["type": "app.open", "app": "com.apple.mobilesafari"])
        _ = try daemon.call("clock.advance", ["seconds": 7200])
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        #expect(try daemon.call("clock.now") == ["t": 7200, "time": "2026-01-05T11:00:00Z"])
        #expect(try daemon.call("device.state")["usageToday"] == ["com.apple.mobilesafari": 7200])
    }

    /// Concurrent clients of one device share journal syncs; every write any of them was told
    /// succeeded is there after `kill -9`.
    @Test func concurrentAcknowledgedWritesSurviveKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let socketPath = daemon.socketPath
        let acknowledged = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            guard let connection = try? RawConnection(path: socketPath) else { return }
            for index in 0..<40 {
                let key = "k\(client)-\(index)"
                let line = #"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"key":"\#(key)","value":\#(index)}}"#
                guard (try? connection.send(line + "\n")) != nil, let reply = try? connection.readLine(),
                    reply.contains(#""ok":true"#)
                else { return }
                acknowledged.withLock { $0.append(key) }
            }
        }
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        let values = try daemon.call("store.dump")["values"]?.objectValue ?? [:]
        let keys = acknowledged.withLock { $0 }
        #expect(keys.count == 160)
        #expect(keys.filter { values[$0] == nil }.isEmpty)
    }

    /// A restart, clean or `kill -9`, is invisible: a daemon restarted between requests answers
    /// every request byte for byte as one that never stopped — new ids (contacts, challenges,
    /// mood entries) included, which a device that forgot its random generator would repeat.
    @Test func aRestartedDeviceBehavesByteForByteLikeOneThatNeverStopped() throws {
        let steady = try DaemonProcess()
        defer { steady.stop() }
        let restarted = try DaemonProcess()
        defer { restarted.stop() }
        let (before, after) = RestartScript.halves
        var answers: [[String]] = [[], []]
        for (index, daemon) in [steady, restarted].enumerated() {
            for request in before { answers[index].append(try Self.rawAnswer(daemon, request)) }
        }
        restarted.kill(SIGTERM)
        #expect(restarted.waitForExit() == 0)
        try restarted.start()
        for (index, daemon) in [steady, restarted].enumerated() {
            for request in after.prefix(6) { answers[index].append(try Self.rawAnswer(daemon, request)) }
        }
        restarted.kill(SIGKILL)
        #expect(restarted.waitForExit() == 137)
        try restarted.start()
        for (index, daemon) in [steady, restarted].enumerated() {
            for request in after.dropFirst(6) { answers[index].append(try Self.rawAnswer(daemon, request)) }
        }
        #expect(answers[0].count == before.count + after.count)
        for (number, (steadyAnswer, restartedAnswer)) in zip(answers[0], answers[1]).enumerated() {
            #expect(steadyAnswer == restartedAnswer, "request \(number + 1)")
        }
        let requests = before + after
        let made = zip(requests, answers[1]).compactMap { request, answer -> String? in
            guard ["logMood", "focus.start"].contains(request["params"]?["name"]?.stringValue ?? "") else { return nil }
            return (try? JSONWire.decode(JSONValue.self, from: Data(answer.utf8)))?["result"]?["result"]?["id"]?.stringValue
        }
        #expect(made.count == 4 && Set(made).count == 4, "every new id is new: \(made)")
        #expect(restarted.log.contains("requests replayed"))
        #expect(!restarted.log.contains("another path"), "each replay retraced the device's steps")
    }

    /// A journal whose requests no longer lead where they did still restores the device, and the
    /// log says where replay left the recorded path, and why: this build wrote it, so it was
    /// edited (it used to blame another build for a hand edit).
    @Test func aReplayThatTakesAnotherPathIsReported() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "k", "value": 1])
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let url = URL(fileURLWithPath: daemon.stateDirectory + "/devices/default.journal")
        let journal = try String(contentsOf: url, encoding: .utf8)
        try journal.replacingOccurrences(of: #"["com.burbn.instagram"]"#, with: "[]")
            .write(to: url, atomically: true, encoding: .utf8)

        try daemon.start()
        #expect(try daemon.call("device.state")["app"]?["shieldedApps"] == [])
        #expect(daemon.log.contains("replaying its journal took another path at line 3 (intent)"), "\(daemon.log)")
        #expect(daemon.log.contains("this build wrote the journal, so it was changed since (edited by hand, or damaged)"))
    }

    /// A journal another build wrote (its header says which) is replayed by this one, and a
    /// replay that leaves the recorded path names both builds.
    @Test func aReplayOfAnotherBuildsJournalNamesBothBuilds() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let url = URL(fileURLWithPath: daemon.stateDirectory + "/devices/default.journal")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try JSONWire.decode(JSONValue.self, from: Data(lines[0].utf8))
        #expect(header["build"]?.stringValue?.hasPrefix("0.1.0 ") == true, "\(lines[0])")
        guard case .object(var members) = header else { return }
        members["build"] = "0.0.9 release swift-6.2-"
        lines[0] = try JSONWire.encodeString(JSONValue.object(members))
        lines[1] = lines[1].replacingOccurrences(of: #"["com.burbn.instagram"]"#, with: "[]")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)

        try daemon.start()
        #expect(try daemon.call("device.state")["app"]?["shieldedApps"] == [])
        #expect(daemon.log.contains("written by another build of clarityd (0.0.9 release swift-6.2-; this is 0.1.0"), "\(daemon.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains("default.1.snapshot"), "the device this build replayed is snapshotted: \(files)")
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        try daemon.start()
        #expect(try daemon.call("device.state")["app"]?["shieldedApps"] == [])
        #expect(daemon.log.components(separatedBy: "took another path").count == 2, "said once, at the first start only")
    }

    /// A last line that is whole (it ends with a newline) but does not read is damage, not a
    /// write cut short by a crash: it is reported and the file kept aside, as for any other line.
    @Test func aWholeButUnreadableLastLineIsKeptAside() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "k", "value": 1])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let url = URL(fileURLWithPath: daemon.stateDirectory + "/devices/default.journal")
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"method":"store.set","at":0}"#.utf8 + [0x0A]))
        try handle.close()

        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == 1)
        #expect(daemon.log.contains("journal line 3 of 3 is unreadable"), "\(daemon.log)")
        #expect(!daemon.log.contains("cut short"))
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains { $0.hasPrefix("default.journal.corrupt-") }, "\(files)")
    }

    /// A journal line replays only into its own device, and only device methods: a line naming
    /// another device, or `device.create`, cannot reach beyond the file.
    @Test func aJournalReplaysOnlyIntoItsOwnDevice() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "other"])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let url = URL(fileURLWithPath: daemon.stateDirectory + "/devices/default.journal")
        let after = #""after":{"ms":0,"random":0,"seq":3}"#
        let lines = [
            #"{\#(after),"at":0,"method":"store.set","params":{"device":"other","key":"k","value":1}}"#,
            #"{\#(after),"at":0,"method":"device.create","params":{"device":"intruder"}}"#,
        ]
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
        try handle.close()

        try daemon.start()
        #expect(try daemon.call("device.list").arrayValue?.map { $0["name"] } == ["default", "other"])
        #expect(try daemon.call("store.get", ["device": "other", "key": "k"])["value"] == .null)
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == 1, "the line applied to its own device")
        #expect(daemon.log.contains("journal line 3 is not a device method (device.create)"))
    }

    /// A long journal is compacted into a snapshot: the device goes on as rebuilt from it, so a
    /// `kill -9` and restart after the compaction changes nothing a client can see — data, trace,
    /// sandboxes — and the random generator goes on (no id handed out twice).
    @Test func aRestartAfterACompactionIsInvisible() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 4])
        defer { daemon.stop() }
        var ids: [String] = []
        _ = try daemon.call("event", ["type": "app.open", "app": "com.burbn.instagram"])
        for mood in 1...5 {
            ids.append(try daemon.call("intent", ["name": "logMood", "args": ["mood": .int(mood)]])["result"]?["id"]?.stringValue ?? "")
        }
        _ = try daemon.call("store.set", ["key": "k", "value": "kept"])
        let seen = try ["device.state", "sandbox.list", "trace.get", "store.dump"].map { try daemon.call($0) }
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices").sorted()
        #expect(files == ["default.1.snapshot", "default.journal"], "compacted once, after 4 lines")

        try daemon.start()
        let again = try ["device.state", "sandbox.list", "trace.get", "store.dump"].map { try daemon.call($0) }
        #expect(again == seen)
        #expect(again[0]["app"]?["history"]?["moodEntries"] == 5)
        let next = try daemon.call("intent", ["name": "logMood", "args": ["mood": 3]])
        ids.append(next["result"]?["id"]?.stringValue ?? "")
        #expect(Set(ids).count == 6, "\(ids)")
        let lastSequence = seen[2].arrayValue?.last?["seq"]?.intValue ?? 0
        #expect((next["effects"]?.arrayValue?.first?["seq"]?.intValue ?? 0) > lastSequence)
    }

    /// A compaction keeps the usage DeviceActivity had not counted yet: Instagram open 200 s,
    /// compacted, 100 s more reach Clarity's 5-minute threshold at 300 s. The device goes on as
    /// rebuilt from the snapshot, which kept only the usage counted at the last event: the
    /// threshold never came at 300 s (seen with the build before the fix).
    @Test func aCompactionKeepsTheUsageNotCountedYet() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 4])
        defer { daemon.stop() }
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call("event", ["type": "app.open", "app": "com.burbn.instagram"])
        _ = try daemon.call("store.set", ["key": "k", "value": "v"])
        _ = try daemon.call("clock.advance", ["seconds": 200])
        #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices").contains("default.1.snapshot"))
        let effects = try daemon.call("clock.advance", ["seconds": 100])["effects"]?.arrayValue ?? []
        let thresholds = effects.filter { $0["kind"] == "monitor.threshold" }
        #expect(thresholds.map { $0["t"] } == [300], "\(effects)")
        #expect(thresholds.first?["event"] == "friction_layer_1")
    }

    /// A compaction keeps the callbacks DeviceActivity holds: locked from 23:30 to 00:30 and
    /// compacted meanwhile, the unlock delivers the day's end and the next one's start (it
    /// delivered nothing with the build before the fix).
    @Test func aCompactionKeepsTheCallbacksWaitingForAnUnlock() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 4])
        defer { daemon.stop() }
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call("clock.advance", ["seconds": 52_200])
        _ = try daemon.call("event", ["type": "lock"])
        _ = try daemon.call("clock.advance", ["seconds": 3_600])
        #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices").contains("default.1.snapshot"))
        let effects = try daemon.call("event", ["type": "unlock"])["effects"]?.arrayValue ?? []
        let callbacks = effects.filter { $0["kind"] == "extension.callback" }.compactMap { $0["callback"]?.stringValue }
        #expect(callbacks == ["intervalDidEnd", "intervalDidStart"], "\(effects)")
    }

    /// A compaction keeps WorkManager's works: an Android phone unlocked offline has its sync
    /// waiting for the network; compacted meanwhile, the phone back online runs it (the build
    /// before the fix ran nothing, and the unlock stayed unsynced).
    @Test func aCompactionKeepsTheSyncWaitingForTheNetwork() throws {
        let daemon = try DaemonProcess(config: ["compactJournalAfter": 4])
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "bob", "app": "thephone", "platform": "android"])
        for type in ["network.offline", "lock", "unlock"] { _ = try daemon.call("event", ["device": "bob", "type": .string(type)]) }
        func snapshots() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices").filter { $0.hasPrefix("bob.") && $0.hasSuffix(".snapshot") }
        }
        let before = try snapshots()
        for value in 1...4 { _ = try daemon.call("store.set", ["device": "bob", "key": "k", "value": .int(value)]) }
        #expect(try snapshots() != before, "compacted after the unlock")
        #expect(try daemon.call("device.state", ["device": "bob"])["app"]?["unsynced"] == 2)
        let effects = try daemon.call("event", ["device": "bob", "type": "network.online"])["effects"]?.arrayValue ?? []
        let work = effects.filter { $0["kind"] == "work" }.compactMap { $0["event"]?.stringValue }
        #expect(work == ["started", "succeeded"], "\(effects)")
        #expect(effects.contains { $0["kind"] == "network.request" && $0["path"] == "/events/sync" })
        #expect(try daemon.call("device.state", ["device": "bob"])["app"]?["unsynced"] == 0)
    }

    /// Issue 7 #17: a save costs what changed, not the whole device. After a 200 KB value, each
    /// small write adds one short journal line.
    @Test func aSmallWriteAfterALargeValueAppendsOneShortLine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let journal = daemon.stateDirectory + "/devices/default.journal"
        func size() throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? NSNumber)?.intValue ?? -1
        }
        _ = try daemon.call("store.set", ["key": "big", "value": .string(String(repeating: "x", count: 200_000))])
        let afterBig = try size()
        #expect(afterBig > 200_000)
        for value in 1...10 { _ = try daemon.call("store.set", ["key": "small", "value": .int(value)]) }
        let grown = try size() - afterBig
        #expect(grown > 0 && grown < 10 * 300, "10 small writes added \(grown) bytes")
    }

    /// Without `compactJournalAfter`, a journal whose replay stays under `maxReplaySteps` is
    /// never compacted: a restart replays every line.
    @Test func byDefaultAShortJournalIsNeverCompacted() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for value in 1...30 { _ = try daemon.call("store.set", ["key": "k", "value": .int(value)]) }
        let trace = try daemon.call("trace.get")
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices") == ["default.journal"])
        try daemon.start()
        #expect(try daemon.call("trace.get") == trace, "the whole trace, from the device's creation")
    }

    /// The answer line to `request` on a fresh connection, as bytes on the wire.
    private static func rawAnswer(_ daemon: DaemonProcess, _ request: JSONValue) throws -> String {
        let line = try JSONWire.encodeString(
            RPCRequest(id: .number(1), method: request["method"]!.stringValue!, params: request["params"]).json)
        guard let answer = daemon.sendRaw(line: line) else { throw RawConnection.Failure(operation: "no answer", errno: 0) }
        return answer
    }
}

/// A day of Clarity, split where the daemon restarts.
enum RestartScript {
    static let halves: (before: [JSONValue], after: [JSONValue]) = {
        func intent(_ name: String, _ args: JSONValue = [:]) -> JSONValue {
            ["method": "intent", "params": ["name": .string(name), "args": args]]
        }
        func event(_ type: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
            ["method": "event", "params": .object(fields.merging(["type": .string(type)]) { first, _ in first })]
        }
        func advance(_ seconds: Int) -> JSONValue { ["method": "clock.advance", "params": ["seconds": .int(seconds)]] }
        let state: JSONValue = ["method": "device.state"]
        let book: JSONValue = [
            ["id": "mom", "name": "Mom", "phone": "+15550100"], ["id": "sam", "name": "Sam", "phone": "+15550101"],
            ["id": "dad", "name": "Dad", "phone": "+15550102"],
        ]
        let before: [JSONValue] = [
            event("contacts.set", ["contacts": book]),
            intent("setImportantContacts", ["contacts": [["id": "mom"], ["id": "sam"], ["id": "dad"]]]),
            intent("selectApps", ["apps": ["com.burbn.instagram"]]),
            event("app.open", ["app": "com.burbn.instagram"]),
            advance(600),
            ["method": "shield.config", "params": ["app": "com.burbn.instagram"]],
            event("app.open", ["app": "com.clarity.focus"]),
            intent("challenge.open"),
            advance(20),
            intent("logMood", ["mood": 4]),
            state,
            [
                "method": "device.create",
                "params": ["device": "nepal", "timezone": "Asia/Kathmandu", "start": "2026-03-28T17:59:30Z", "seed": 99],
            ],
            ["method": "intent", "params": ["device": "nepal", "name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]]],
            ["method": "event", "params": ["device": "nepal", "type": "app.open", "app": "com.burbn.instagram"]],
            ["method": "clock.advance", "params": ["device": "nepal", "seconds": 0.001]],
        ]
        let after: [JSONValue] = [
            advance(20),
            event("app.open", ["app": "com.clarity.focus"]),
            intent("logMood", ["mood": 2]),
            intent("focus.start", ["minutes": 30, "whitelist": ["com.apple.MobileSMS"]]),
            advance(1800),
            state,
            ["method": "store.set", "params": ["key": "frictionLevel", "value": 4]],
            event("app.open", ["app": "com.clarity.focus"]),
            intent("challenge.open"),
            event("call.dial", ["handle": "+15550101"]),
            event("call.connect"),
            advance(400),
            event("call.end"),
            intent("logMood", ["mood": 5]),
            state,
            ["method": "clock.advance", "params": ["device": "nepal", "seconds": 86_399.999]],
            ["method": "device.state", "params": ["device": "nepal"]],
            ["method": "trace.get", "params": ["device": "nepal"]],
            ["method": "trace.get"],
            ["method": "notifications.list"],
            ["method": "sandbox.list"],
        ]
        return (before, after)
    }()
}
