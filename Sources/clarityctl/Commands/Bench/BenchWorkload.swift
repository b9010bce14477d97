import ControlProtocol

/// The requests of one bench phase, prebuilt as bytes so that clients only copy them to the socket.
///
/// A workload is a cycle of request lines (`daemon.ping`; an `event` of type `lock` then
/// `unlock`; `clock.advance`; `store.set`), laid out as pipeline batches: `batches[p]` holds `pipeline` lines starting at
/// position `p` of the cycle, so request number `i` of a client always gets the same line.
struct BenchWorkload: Sendable {
    /// A pipeline batch: the bytes of its lines back to back, and where each line ends.
    struct Batch: Sendable {
        let bytes: [UInt8]
        let lineEnds: [Int]
    }

    /// What a successful response line looks like.
    enum Reply: Sendable {
        /// A JSON-RPC response carrying `result` rather than `error`.
        case jsonRPC
        /// A redis simple-string reply (`+PONG`), not an error (`-ERR …`).
        case redisStatus

        private static let resultKey = Array("\"result\"".utf8)
        private static let errorKey = Array("\"error\"".utf8)

        /// Whether `line` (without its `\n`) is a success. For JSON-RPC, whichever of `result` and
        /// `error` comes first decides, since `id` and `jsonrpc` hold no such strings.
        func isSuccess(_ line: UnsafeRawBufferPointer) -> Bool {
            switch self {
            case .redisStatus:
                return line.first == UInt8(ascii: "+")
            case .jsonRPC:
                for index in line.indices where line[index] == UInt8(ascii: "\"") {
                    if line.has(Self.resultKey, at: index) { return true }
                    if line.has(Self.errorKey, at: index) { return false }
                }
                return false
            }
        }
    }

    /// The name the report uses: the method, or `event` for the lock/unlock cycle.
    let label: String
    let reply: Reply
    private let batches: [Batch]

    init(label: String, cycle: [JSONValue], pipeline: Int) throws {
        let lines = try cycle.map { request in Array(try JSONWire.encode(request)) + [UInt8(ascii: "\n")] }
        self.init(label: label, lines: lines, reply: .jsonRPC, pipeline: pipeline)
    }

    private init(label: String, lines: [[UInt8]], reply: Reply, pipeline: Int) {
        self.label = label
        self.reply = reply
        self.batches = lines.indices.map { phase in
            var bytes: [UInt8] = []
            var lineEnds: [Int] = []
            for offset in 0..<pipeline {
                bytes += lines[(phase + offset) % lines.count]
                lineEnds.append(bytes.count)
            }
            return Batch(bytes: bytes, lineEnds: lineEnds)
        }
    }

    /// The batch whose first request is request number `index` of a client.
    func batch(startingAt index: Int) -> Batch {
        batches[index % batches.count]
    }

    /// `daemon.ping`, over and over.
    static func ping(pipeline: Int) throws -> BenchWorkload {
        try BenchWorkload(
            label: Method.daemonPing.rawValue, cycle: [request(.daemonPing, params: nil)], pipeline: pipeline)
    }

    /// redis's `PING` (an inline command, answered `+PONG`), over and over: the same clients
    /// measuring a redis-server, so that the two are compared through one load generator
    /// (`--redis`, docs/performance.md).
    static func redisPing(pipeline: Int) -> BenchWorkload {
        BenchWorkload(label: "redis PING", lines: [Array("PING\r\n".utf8)], reply: .redisStatus, pipeline: pipeline)
    }

    /// `event` of type `lock`, then `unlock`, on `device`.
    static func lockUnlock(device: String, pipeline: Int) throws -> BenchWorkload {
        let cycle = ["lock", "unlock"].map { type in
            request(.event, params: ["device": .string(device), "type": .string(type)])
        }
        return try BenchWorkload(label: Method.event.rawValue, cycle: cycle, pipeline: pipeline)
    }

    /// `clock.advance` by one second, over and over, on `device`: each request moves virtual time.
    static func advance(device: String, pipeline: Int) throws -> BenchWorkload {
        let cycle = [request(.clockAdvance, params: ["device": .string(device), "seconds": 1])]
        return try BenchWorkload(label: Method.clockAdvance.rawValue, cycle: cycle, pipeline: pipeline)
    }

    /// `store.set` of one key to 0, 1, 2 … 7 in turn on `device`: each request is a durable write.
    static func storeSet(device: String, pipeline: Int) throws -> BenchWorkload {
        let cycle = (0..<8).map { value in
            request(.storeSet, params: ["device": .string(device), "key": "benchKey", "value": .int(value)])
        }
        return try BenchWorkload(label: Method.storeSet.rawValue, cycle: cycle, pipeline: pipeline)
    }

    private static func request(_ method: Method, params: JSONValue?) -> JSONValue {
        RPCRequest(id: .number(1), method: method.rawValue, params: params).json
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func has(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + bytes.count <= count else { return false }
        for offset in bytes.indices where self[index + offset] != bytes[offset] { return false }
        return true
    }
}
