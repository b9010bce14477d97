import ControlProtocol
import DaemonTestSupport
import Foundation
import JSONValues
import Testing

/// The connections' event loops (clarityd.json `eventLoops`): a round's answers are sent once
/// its reads are done, and however many loops there are, every client gets every answer, in the
/// order it asked, inline answers and device answers alike.
@Suite struct EventLoopTests {
    @Test(arguments: [1, 3])
    func clientsWritingAtOnceEachGetEveryAnswerInOrder(loops: Int) throws {
        let daemon = try DaemonProcess(config: ["eventLoops": .int(loops)])
        defer { daemon.stop() }
        let clients = try (0..<6).map { _ in try RawConnection(path: daemon.socketPath) }
        let requests = 120
        // Every tenth request goes to the device's lane (a store write); the rest are answered
        // inline by the loop. Each client sends all of its lines in one write.
        func isWrite(_ id: Int) -> Bool { id % 10 == 0 }
        for (index, client) in clients.enumerated() {
            var lines = ""
            for id in 1...requests {
                var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id)]
                if isWrite(id) {
                    request["method"] = "store.set"
                    request["params"] = ["key": .string("client-\(index)"), "value": .int(id)]
                } else {
                    request["method"] = "daemon.ping"
                }
                lines += String(decoding: try JSONWire.encode(JSONValue.object(request)), as: UTF8.self) + "\n"
            }
            try client.send(lines)
        }
        for client in clients {
            for id in 1...requests {
                let answer = try #require(try client.answer())
                #expect(answer["id"] == .int(id))
                if isWrite(id) {
                    #expect(answer["result"]?["ok"] == true, "\(answer)")
                } else {
                    #expect(answer["result"]?["pong"] == true, "\(answer)")
                }
            }
        }
        // Pings alone, all read in one round of the loop: nothing but the round's end sends them.
        for client in clients { try client.request(id: requests + 1, "daemon.ping") }
        for client in clients {
            #expect(try client.answer()?["result"]?["pong"] == true)
        }
        for index in clients.indices {
            #expect(try daemon.call("store.get", ["key": .string("client-\(index)")])["value"] == .int(requests))
        }
    }

    /// Connections close while others open, so descriptor numbers are given again: a connection
    /// given a closed one's number is served, and idle ones do not keep the others waiting.
    @Test func connectionsOpeningAsOthersCloseAreAllServed() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        var open = try (0..<200).map { _ in try RawConnection(path: daemon.socketPath) }
        for round in 0..<5 {
            open.removeFirst(40)
            let fresh = try (0..<40).map { _ in try RawConnection(path: daemon.socketPath) }
            for (index, connection) in fresh.enumerated() {
                let answer = try connection.call(id: round * 100 + index, "daemon.ping")
                #expect(answer?["result"]?["pong"] == true, "round \(round), connection \(index)")
            }
            open += fresh
        }
        for (index, connection) in open.enumerated().filter({ $0.offset % 20 == 0 }) {
            #expect(try connection.call(id: index, "daemon.ping")?["result"]?["pong"] == true)
        }
    }
}
