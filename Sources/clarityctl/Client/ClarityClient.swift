import ControlProtocol
import Foundation

/// A connection to clarityd that sends one JSON-RPC request at a time and reads its response line.
///
/// Lines without an `id` (server-initiated notifications) are handed to `notified`, if given,
/// and otherwise skipped while waiting for a response.
final class ClarityClient {
    private let socket: UnixSocket
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    /// The id the next ``call(_:params:notified:)`` sends (1, 2, …: each connection's own).
    private(set) var nextID = 1

    /// Connects to the daemon at `socketPath`; `idleTimeout` (seconds, nil for none) bounds each
    /// wait for the daemon (``UnixSocket``), so notifications keep a long call alive.
    init(socketPath: String, idleTimeout: Double?) throws {
        self.socket = try UnixSocket(connectingTo: socketPath, idleTimeout: idleTimeout)
    }

    /// Calls `method`; returns the `result`, or throws the daemon's ``RPCError`` or a ``ClientError``.
    /// Notifications that arrive meanwhile (`scenario.progress`) go to `notified`.
    func call(_ method: String, params: JSONValue?, notified: ((_ method: String, _ params: JSONValue) -> Void)? = nil)
        throws -> JSONValue
    {
        let request = RPCRequest(id: .number(nextID), method: method, params: params)
        nextID += 1
        var line = try JSONWire.encode(request.json)
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { try socket.write($0) }
        while true {
            let line = try readLine()
            guard case .object(let members)? = try? JSONWire.decode(JSONValue.self, from: line) else {
                throw ClientError.invalidResponse(String(decoding: line, as: UTF8.self))
            }
            if members["id"] == nil, case .string(let name)? = members["method"] {
                notified?(name, members["params"] ?? .null)
                continue
            }
            if let error = members["error"] {
                guard let error = try? JSONWire.decode(RPCError.self, from: error) else {
                    throw ClientError.invalidResponse(String(decoding: line, as: UTF8.self))
                }
                throw error
            }
            guard let result = members["result"] else {
                throw ClientError.invalidResponse(String(decoding: line, as: UTF8.self))
            }
            return result
        }
    }

    /// A message the daemon sent of its own accord (after `subscribe`): its `method`, its
    /// `params`, and the line as it came.
    struct Notification {
        let method: String
        let params: JSONValue
        let line: Data
    }

    /// The next notification, waiting for it as long as it takes (a watched device may be quiet
    /// for hours): from now on reads wait without the idle timeout. Throws
    /// ``ClientError/closedByDaemon`` when the daemon closes the connection.
    func nextNotification() throws -> Notification {
        socket.idleTimeout = nil
        while true {
            let line = try readLine()
            guard case .object(let members)? = try? JSONWire.decode(JSONValue.self, from: line) else {
                throw ClientError.invalidResponse(String(decoding: line, as: UTF8.self))
            }
            guard members["id"] == nil, case .string(let method)? = members["method"] else { continue }
            return Notification(method: method, params: members["params"] ?? .null, line: line)
        }
    }

    /// The next `\n`-terminated line, without its terminator.
    private func readLine() throws -> Data {
        var scanned = 0
        while true {
            if let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            scanned = pending.count
            let count = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            if count == 0 { throw ClientError.closedByDaemon }
            pending.append(contentsOf: chunk[..<count])
        }
    }
}
