import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The limits that keep one client from taking the daemon's memory, descriptors or log from the
/// others (docs/protocol.md, Transport and framing): each abuse gets its documented answer, and
/// the daemon goes on serving everyone else.
@Suite struct ConnectionLimitTests {
    private static let ping = #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#

    private func decode(_ line: String?) -> JSONValue? {
        guard let line else { return nil }
        return try? JSONWire.decode(JSONValue.self, from: Data(line.utf8))
    }

    private static func request(_ id: Int, _ method: String, _ params: JSONValue? = nil) -> String {
        let request = RPCRequest(id: .number(id), method: method, params: params)
        return (try? JSONWire.encodeString(request.json)) ?? ""
    }

    private static func notification(_ method: String, _ params: JSONValue? = nil) -> String {
        (try? JSONWire.encodeString(RPCRequest(id: nil, method: method, params: params).json)) ?? ""
    }

    /// Gives the default device a trace of about `events` events (lock, unlock, …), so that
    /// `trace.get` answers are large.
    private func growTrace(_ daemon: DaemonProcess, events: Int) throws {
        let connection = try daemon.connect(receiveTimeout: 60)
        var sent = 0
        while sent < events {
            let count = min(500, events - sent)
            let batch = (0..<count).map { index in
                Self.notification("event", ["type": .string((sent + index) % 2 == 0 ? "lock" : "unlock")])
            }
            try connection.send("[" + batch.joined(separator: ",") + "]\n")
            sent += count
        }
        try connection.send(Self.ping + "\n")
        #expect(try connection.readLine()?.contains(#""pong":true"#) == true)
    }

    /// About 1.3 MB of answers to a 58 KB line, answered at once (daemon.* only).
    private static let catalogs = "[" + (0..<1000).map { request($0, "daemon.catalog") }.joined(separator: ",") + "]\n"

    /// A line of exactly the limit is accepted with `\r\n` as with `\n`.
    @Test func aLineOfExactlyTheLimitEndedByCRLFIsAnswered() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let limit = 1_048_576
        let padded = Self.ping + String(repeating: " ", count: limit - Self.ping.utf8.count)
        let connection = try daemon.connect()
        try connection.send(padded + "\r\n")
        #expect(decode(try connection.readLine())?["result"]?["pong"] == true)
        try connection.send(padded + " \r\n")
        #expect(decode(try connection.readLine())?["error"]?["code"] == -32004)
        #expect(connection.waitForClose())
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    /// A client that sends requests and never reads their answers stops being answered once
    /// 4 MiB of answers wait for it — even the requests it has already sent, which the daemon
    /// took in one read: they don't run until it reads, and then all of them are answered, in
    /// order.
    @Test func aClientThatDoesNotReadIsAnsweredNoFurtherUntilItReads() throws {
        let daemon = try DaemonProcess(arguments: ["--log-level", "debug"])
        defer { daemon.stop() }
        try growTrace(daemon, events: 1200)
        let greedy = try daemon.connect(receiveTimeout: 60)
        // 80 answers of about 150 KB each to 6 KB of requests, then a request that changes something.
        var requests = (0..<80).map { Self.request($0, "trace.get", ["limit": 1000]) }
        requests.append(Self.request(80, "store.set", ["key": "progress", "value": 1]))
        try greedy.send(requests.joined(separator: "\n") + "\n")
        #expect(daemon.waitForLog("bytes of answers wait unsent; its next requests wait until it reads"))
        #expect(try daemon.call("store.get", ["key": "progress"])["value"] == .null, "a request behind unread answers ran")
        #expect(try daemon.call("daemon.ping")["pong"] == true)
        // It reads: every answer comes, in order (keys are sorted: the id comes first), and the
        // last request ran.
        for id in 0..<80 {
            let answer = try greedy.readLine() ?? ""
            #expect(answer.hasPrefix(#"{"id":\#(id),"jsonrpc":"2.0","result":[{"#), "\(answer.prefix(80))")
        }
        #expect(try greedy.readLine() == #"{"id":80,"jsonrpc":"2.0","result":{"ok":true}}"#)
        #expect(try daemon.call("store.get", ["key": "progress"])["value"] == 1)
    }

    /// Clients that do not read hold at most 64 MiB of answers together: past that, a client
    /// with any answer unsent gets nothing more run until it reads.
    @Test func clientsThatDoNotReadShareOneCapOnUnsentAnswers() throws {
        let daemon = try DaemonProcess(arguments: ["--log-level", "debug"])
        defer { daemon.stop() }
        let catalogs = Self.catalogs
        var greedy: [Unread] = []
        for _ in 0..<16 {
            // From another thread: the daemon may stop reading before it has taken all of it.
            let client = Unread(try daemon.connect())
            DispatchQueue.global().async { try? client.connection.send(String(repeating: catalogs, count: 4)) }
            greedy.append(client)
        }
        // Until they hold over 64 MiB of answers unsent together: each at most 4 MiB plus the
        // answer (1.3 MB) that crossed them, which it logs; how many reach their own 4 MiB before
        // the 64 MiB are taken depends on the order the daemon answered them in. Each status is
        // answered only after the batch a loop is encoding: the daemon paces the asking.
        var unsent = 0
        var limit = Int.max
        let deadline = Date(timeIntervalSinceNow: 60 * TestTimeouts.scale)
        while unsent <= limit, Date() < deadline {
            let answers = try daemon.call("daemon.status")["answers"]
            unsent = answers?["unsent"]?.intValue ?? 0
            limit = answers?["limit"]?.intValue ?? Int.max
        }
        #expect(unsent > limit, "\(unsent) bytes unsent, limit \(limit)")
        #expect(unsent <= greedy.count * (6 << 20), "each client holds at most 4 MiB and one answer")
        #expect(daemon.log.contains("bytes of answers wait unsent"))

        let late = try daemon.connect()
        try late.send(catalogs + Self.request(1, "store.set", ["key": "late", "value": 1]) + "\n")
        #expect(daemon.waitForLog("while all clients' unsent answers are over 67108864 bytes"))
        #expect(try daemon.call("store.get", ["key": "late"])["value"] == .null, "a request behind an unread answer ran")
        #expect(try daemon.call("daemon.ping")["pong"] == true)
        // Once it reads, it is answered, and the request runs.
        #expect(try late.readLine()?.hasPrefix(#"[{"id":0,"#) == true)
        #expect(decode(try late.readLine())?["result"]?["ok"] == true)
        #expect(try daemon.call("store.get", ["key": "late"])["value"] == 1)
        withExtendedLifetime(greedy) {}
    }

    /// Once the answers to a batch have taken 4 MiB, the rest of it does not run: each request
    /// left is answered -32004 naming the limit, notifications are skipped. Clients that leave
    /// in the middle of such an answer leave the daemon serving.
    @Test func aBatchStopsRunningOnceItsAnswersReachTheLimit() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try growTrace(daemon, events: 1200)
        let count = 60
        var members = (0..<count).map { Self.request($0, "trace.get", ["limit": 1000]) }
        members.append(Self.request(count, "store.set", ["key": "late", "value": 1]))
        members.append(Self.notification("event", ["type": "lock"]))
        let batch = "[" + members.joined(separator: ",") + "]\n"

        let connection = try daemon.connect(receiveTimeout: 60)
        try connection.send(batch)
        let line = try connection.readLine() ?? ""
        // Foundation's parser: the line is over 4 MB.
        let answers = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [[String: Any]] ?? []
        #expect(answers.map { $0["id"] as? Int } == (0...count).map { $0 })
        let ran = answers.prefix { $0["result"] != nil }
        #expect(!ran.isEmpty && ran.count < count)
        let largest = ran.map { (try? JSONSerialization.data(withJSONObject: $0).count) ?? 0 }.max() ?? 0
        #expect(line.utf8.count <= 4_194_304 + largest + 200 * (answers.count - ran.count))
        for refused in answers.dropFirst(ran.count) {
            let error = refused["error"] as? [String: Any]
            #expect(error?["code"] as? Int == -32004)
            #expect((error?["data"] as? [String: Any])?["limit"] as? Int == 4_194_304)
            #expect((error?["message"] as? String)?.contains("4194304 bytes") == true)
        }
        #expect(try daemon.call("store.get", ["key": "late"])["value"] == .null, "a request past the limit ran")
        #expect(try daemon.call("device.state")["locked"] == false, "a notification past the limit ran")

        // Clients that send such a batch and leave before the answer.
        for _ in 0..<3 {
            let quitter = try daemon.connect()
            try quitter.send(batch)
        }
        #expect(try daemon.call("daemon.ping")["pong"] == true)
        try connection.send(Self.ping + "\n")
        #expect(try connection.readLine()?.contains(#""pong":true"#) == true)
    }

    /// A batch may hold 1000 requests; one more and it is refused whole (-32600, id null), none
    /// of it run, and the connection goes on. Half a million invalid requests in one line get one
    /// answer and one log line.
    @Test func aBatchOfMoreThanTheMostRequestsIsRefusedWhole() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let connection = try daemon.connect(receiveTimeout: 60)
        let pings = (0..<1000).map { Self.request($0, "daemon.ping") }
        try connection.send("[" + pings.joined(separator: ",") + "]\n")
        #expect(decode(try connection.readLine())?.arrayValue?.count == 1000)

        let tooMany = pings + [Self.request(1000, "store.set", ["key": "k", "value": 1])]
        try connection.send("[" + tooMany.joined(separator: ",") + "]\n")
        let refusal = decode(try connection.readLine())
        #expect(refusal?["id"] == .null)
        #expect(refusal?["error"]?["code"] == -32600)
        #expect(refusal?["error"]?["data"]?["limit"] == 1000)
        #expect(refusal?["error"]?["message"]?.stringValue?.contains("at most 1000 requests") == true)
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == .null, "a member of a refused batch ran")

        let before = daemon.log.components(separatedBy: " WARNING ").count
        let ones = "[" + Array(repeating: "1", count: 524_287).joined(separator: ",") + "]"
        try connection.send(ones + "\n")
        let answer = try connection.readLine() ?? ""
        #expect(answer.utf8.count < 1000)
        #expect(decode(answer)?["error"]?["code"] == -32600)
        try connection.send(Self.ping + "\n")
        #expect(try connection.readLine()?.contains(#""pong":true"#) == true)
        #expect(daemon.log.components(separatedBy: " WARNING ").count - before <= 2)
    }

    /// A client that sends invalid requests by the thousand gets every answer, but the log gets
    /// about one line a second for it, and a count of the rest.
    @Test func invalidRequestsDoNotFloodTheLog() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let count = 3000
        do {
            let connection = try daemon.connect()
            try connection.send(String(repeating: "{}\n", count: count))
            for _ in 0..<count { #expect(decode(try connection.readLine())?["error"]?["code"] == -32600) }
        }
        // The connection is closed: what was held back is summed up.
        var printed = 0
        var suppressed = 0
        _ = daemon.waitForLog { log in
            let lines = log.split(separator: "\n")
            printed = lines.filter { $0.contains(" WARNING connection ") && $0.contains("jsonrpc must be") }.count
            suppressed = lines.compactMap { line -> Int? in
                guard let range = line.range(of: #": \d+ similar messages? suppressed \(invalid request\)"#, options: .regularExpression)
                else { return nil }
                return Int(line[range].dropFirst(2).prefix { $0.isNumber })
            }.reduce(0, +)
            return printed + suppressed >= count
        }
        #expect(printed + suppressed == count)
        #expect(printed < 100)
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    /// Unfinished lines of all clients together may hold 64 MiB: the client that would take them
    /// past it is answered -32004 and closed; the others, and clients sending whole lines, are
    /// served, and once they are done the room is back.
    @Test func unfinishedLinesOfAllClientsShareOneCap() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let almostALine = Array(
            (Self.ping + String(repeating: " ", count: 1_048_576 - 64 - Self.ping.utf8.count)).utf8)
        var clients: [RawConnection] = []
        for _ in 0..<70 {
            let client = try daemon.connect(receiveTimeout: 30)
            try? client.send(almostALine)
            clients.append(client)
        }
        #expect(try daemon.call("daemon.ping")["pong"] == true, "a client sending whole lines is served")
        for client in clients { try? client.send("\n") }
        var refused = 0
        for client in clients {
            let answer = decode(try client.readLine())
            if answer?["error"]?["code"] == -32004 {
                #expect(answer?["error"]?["data"]?["limit"] == 67_108_864)
                #expect(client.waitForClose())
                refused += 1
            } else {
                #expect(answer?["result"]?["pong"] == true)
            }
        }
        #expect(refused >= 1 && refused <= 10)
        clients = []
        #expect(daemon.waitForLog("would take all clients' past 67108864 bytes"))
        // The room is back.
        let later = try daemon.connect()
        try later.send(almostALine)
        try later.send("\n")
        #expect(decode(try later.readLine())?["result"]?["pong"] == true)
    }

    /// A client that sends part of a line and then nothing is closed after 10 s; one that sends
    /// a byte at a time, slowly, is not, though its line takes longer than that.
    @Test func aClientThatStallsHalfwayThroughALineIsClosed() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let stalled = try daemon.connect(receiveTimeout: 60)
        try stalled.send(#"{"jsonrpc":"2.0","id":1,"#)
        let slow = try daemon.connect(receiveTimeout: 60)
        // A byte, then up to 250 ms for the stalled client to be closed (10 s after its last
        // byte, which came before the slow client's first): 48 bytes take about 12 s, and the
        // slow client is still sending its line when the stalled one is closed.
        var stalledClosed = false
        for byte in (Self.ping + "\n").utf8 {
            try slow.send([byte])
            if !stalledClosed { stalledClosed = stalled.waitForClose(timeout: 0.25) }
        }
        #expect(decode(try slow.readLine())?["result"]?["pong"] == true)
        #expect(stalledClosed || stalled.waitForClose())
        #expect(daemon.log.contains("sent 24 bytes of a line, then nothing for 10 s; closing it"))
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    /// Out of descriptors, the daemon stops accepting only until one is free: the clients that
    /// waited meanwhile are served as soon as others leave, and so is everyone after.
    @Test func acceptingResumesOnceDescriptorsAreFreeAgain() throws {
        let daemon = try DaemonProcess(descriptorLimit: 64)
        defer { daemon.stop() }
        // More clients than the daemon has descriptors for (it keeps every one open until the
        // client leaves): the last ones wait in the listen backlog.
        var clients: [RawConnection] = []
        for _ in 0..<90 { clients.append(try daemon.connect(receiveTimeout: 15)) }
        for client in clients { try client.send(Self.ping + "\n") }
        // Only once the daemon has run out (under load it may not have reached the limit yet,
        // and clients leaving first would free descriptors before it does): the first 60 leave;
        // every one of the others is served.
        #expect(daemon.waitForLog("out of file descriptors"), "\(daemon.log)")
        let staying = Array(clients.suffix(30))
        clients = []
        // Seen once in a full local run (2026-11-27): five of these read something other than a
        // pong, not a timeout (which throws); what they read and the daemon's log say which.
        for (index, client) in staying.enumerated() {
            let line = try client.readLine()
            #expect(
                line?.contains(#""pong":true"#) == true,
                "waiting client \(index) read \(line ?? "the end of the stream"); the daemon's log:\n\(daemon.log)")
        }
        // And so on, round after round: each time more clients come than the daemon can hold
        // alongside those still there; the first ones leave, and the last ones are served.
        for _ in 0..<3 {
            var fresh: [RawConnection] = []
            for _ in 0..<40 { fresh.append(try daemon.connect(receiveTimeout: 15)) }
            for client in fresh { try client.send(Self.ping + "\n") }
            let last = Array(fresh.suffix(10))
            fresh = []
            for client in last { #expect(try client.readLine()?.contains(#""pong":true"#) == true) }
        }
        withExtendedLifetime(staying) {}
    }
}

/// A connection whose bytes another thread sends while the test waits for the daemon (that
/// thread ends when the daemon takes them all, or stops).
private final class Unread: @unchecked Sendable {
    let connection: RawConnection

    init(_ connection: RawConnection) {
        self.connection = connection
    }
}
