import ControlProtocol
import Foundation

extension RawConnection {
    /// Sends one JSON-RPC request line, without waiting for its answer.
    public func request(id: Int, _ method: String, _ params: JSONValue? = nil) throws {
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { request["params"] = params }
        try send(String(decoding: try JSONWire.encode(JSONValue.object(request)), as: UTF8.self) + "\n")
    }

    /// The next answer (a line with an `id`), skipping notifications; nil when the daemon closed
    /// the connection first.
    public func answer() throws -> JSONValue? {
        while let line = try readLine() {
            let message = try JSONWire.decode(JSONValue.self, from: Data(line.utf8))
            if message["id"] != nil { return message }
        }
        return nil
    }

    /// Sends a request and returns its answer (the whole response object).
    public func call(id: Int, _ method: String, _ params: JSONValue? = nil) throws -> JSONValue? {
        try request(id: id, method, params)
        return try answer()
    }
}

extension DaemonProcess {
    /// The daemon's error for `method` with `params`; nil when it answered with a result.
    public func error(calling method: String, _ params: JSONValue? = nil) -> RPCError? {
        do {
            _ = try call(method, params)
            return nil
        } catch {
            return error as? RPCError
        }
    }

    /// Asks `condition` again (with a `daemon.ping` between looks, so the daemon sets the pace,
    /// not a sleep) until it holds or `attempts` looks have been made; whether it held.
    public func eventually(attempts: Int = 5000, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<attempts {
            if try condition() { return true }
            _ = try? call("daemon.ping")
        }
        return try condition()
    }

    /// `daemon.status`'s `scenarios`: `threads`, `queueLimit`, `running`, `queued`.
    public func scenarioLoad() throws -> (running: Int, queued: Int) {
        let scenarios = try call("daemon.status")["scenarios"]
        return (scenarios?["running"]?.intValue ?? -1, scenarios?["queued"]?.intValue ?? -1)
    }
}
