import ControlProtocol
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
}
