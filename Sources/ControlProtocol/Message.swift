import Foundation

/// A JSON-RPC 2.0 request id: a string, a number or null.
public enum RPCID: Sendable, Hashable, Codable {
    case string(String)
    case number(Int)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

/// A validated JSON-RPC 2.0 request. `id == nil` makes it a notification (no response).
public struct RPCRequest: Sendable, Hashable {
    public var id: RPCID?
    public var method: String
    public var params: JSONValue?

    public init(id: RPCID?, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    public var isNotification: Bool { id == nil }

    /// The wire form of this request.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { members["params"] = params }
        if let id {
            switch id {
            case .string(let value): members["id"] = .string(value)
            case .number(let value): members["id"] = .int(value)
            case .null: members["id"] = .null
            }
        }
        return .object(members)
    }

    /// The members of a request object that mean something (JSON-RPC 2.0 §4); any other is ignored.
    enum Member: Int, CaseIterable {
        case id, jsonrpc, method, params

        var name: StaticString {
            switch self {
            case .id: "id"
            case .jsonrpc: "jsonrpc"
            case .method: "method"
            case .params: "params"
            }
        }

        /// The names, in the order of the cases (``JSONReader/parse(_:keepingMembers:)``).
        static let names = allCases.map(\.name)
    }

    /// Validates one request object (JSON-RPC 2.0 §4). On failure, returns the error and the id
    /// to answer it with (null when the id itself could not be read).
    public static func validate(_ value: JSONValue) -> Result<RPCRequest, InvalidRequest> {
        guard case .object(let members) = value else {
            return .failure(InvalidRequest(id: .null, error: .invalidRequest("a request must be an object")))
        }
        return validate(
            id: members[Member.id.name.description], jsonrpc: members[Member.jsonrpc.name.description],
            method: members[Member.method.name.description], params: members[Member.params.name.description])
    }

    /// Validates a request object's members (nil where absent).
    static func validate(id idMember: JSONValue?, jsonrpc: JSONValue?, method methodMember: JSONValue?, params: JSONValue?)
        -> Result<RPCRequest, InvalidRequest>
    {
        var id: RPCID?
        switch idMember {
        case nil: id = nil
        case .string(let value)?: id = .string(value)
        case .int(let value)?: id = .number(value)
        case .null?: id = .null
        default:
            return .failure(InvalidRequest(id: .null, error: .invalidRequest("id must be a string, an integer or null")))
        }
        let answerID = id ?? .null
        guard case .string("2.0")? = jsonrpc else {
            return .failure(InvalidRequest(id: answerID, error: .invalidRequest("jsonrpc must be \"2.0\"")))
        }
        guard case .string(let method)? = methodMember else {
            return .failure(InvalidRequest(id: answerID, error: .invalidRequest("method must be a string")))
        }
        switch params {
        case nil, .object?, .array?: break
        default:
            return .failure(InvalidRequest(id: answerID, error: .invalidRequest("params must be an object or an array")))
        }
        return .success(RPCRequest(id: id, method: method, params: params))
    }

    /// A request that failed validation, with the id its error response carries.
    public struct InvalidRequest: Error, Sendable {
        public var id: RPCID
        public var error: RPCError
    }
}

/// A JSON-RPC 2.0 response: exactly one of `result` and `error`.
public struct RPCResponse: Sendable, Hashable, Codable {
    public var jsonrpc: String = "2.0"
    public var id: RPCID
    public var outcome: Outcome

    public enum Outcome: Sendable, Hashable {
        case result(JSONValue)
        case error(RPCError)
    }

    public init(id: RPCID, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    public init(id: RPCID, result: JSONValue) { self.init(id: id, outcome: .result(result)) }
    public init(id: RPCID, error: RPCError) { self.init(id: id, outcome: .error(error)) }

    enum CodingKeys: String, CodingKey { case jsonrpc, id, result, error }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = try container.decode(String.self, forKey: .jsonrpc)
        id = try container.decodeIfPresent(RPCID.self, forKey: .id) ?? .null
        if let error = try container.decodeIfPresent(RPCError.self, forKey: .error) {
            outcome = .error(error)
        } else {
            outcome = .result(try container.decodeIfPresent(JSONValue.self, forKey: .result) ?? .null)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        switch outcome {
        case .result(let value): try container.encode(value, forKey: .result)
        case .error(let error): try container.encode(error, forKey: .error)
        }
    }
}

/// One inbound line, classified (JSON-RPC 2.0 §6): a single request or a batch.
public enum InboundMessage: Sendable {
    case single(Result<RPCRequest, RPCRequest.InvalidRequest>)
    case batch([Result<RPCRequest, RPCRequest.InvalidRequest>])

    /// Parses one NDJSON line. A parse error or an empty batch is returned as a failure that
    /// must be answered with a single error response carrying id null.
    public static func parse(_ line: Data) -> Result<InboundMessage, RPCError> {
        line.withUnsafeBytes { parse($0) }
    }

    /// Parses one NDJSON line held in memory the caller owns (``LineBuffer`` hands these out).
    /// A batch of more than `maxBatchRequests` members is a failure too
    /// (``RPCError/batchTooLong(limit:count:)``), refused whole before any member is looked at.
    public static func parse(_ line: UnsafeRawBufferPointer, maxBatchRequests: Int = .max) -> Result<
        InboundMessage, RPCError
    > {
        var id: JSONValue?
        var jsonrpc: JSONValue?
        var method: JSONValue?
        var params: JSONValue?
        let value: JSONValue?
        do {
            value = try JSONReader.parse(line, keepingMembers: RPCRequest.Member.names) { slot, member in
                switch RPCRequest.Member(rawValue: slot)! {
                case .id: id = member
                case .jsonrpc: jsonrpc = member
                case .method: method = member
                case .params: params = member
                }
            }
        } catch {
            return .failure(.parseError("the line is not valid JSON"))
        }
        switch value {
        case nil:
            return .success(.single(RPCRequest.validate(id: id, jsonrpc: jsonrpc, method: method, params: params)))
        case .array(let items)?:
            if items.isEmpty { return .failure(.invalidRequest("empty batch")) }
            if items.count > maxBatchRequests {
                return .failure(.batchTooLong(limit: maxBatchRequests, count: items.count))
            }
            return .success(.batch(items.map(RPCRequest.validate)))
        case let scalar?:
            return .success(.single(RPCRequest.validate(scalar)))
        }
    }
}

extension RPCError {
    /// -32600 for a batch of more members than the daemon takes in one line: the batch is
    /// refused whole (none of it runs) and answered with id null, as an empty batch is.
    /// `data` = `{"limit": <most members>}`.
    public static func batchTooLong(limit: Int, count: Int) -> RPCError {
        RPCError(
            code: Code.invalidRequest,
            message: "Invalid request: a batch may hold at most \(limit) requests; this one holds \(count)",
            data: ["limit": .int(limit)])
    }

    /// -32004 for a batch member that was not run because the answers before it already took
    /// `limit` bytes. `data` = `{"limit": <bytes>}`.
    public static func batchResponseTooLarge(limit: Int) -> RPCError {
        RPCError(
            code: Code.requestTooLarge,
            message:
                "Response too large: the answers to one batch may take at most \(limit) bytes; this request was not run",
            data: ["limit": .int(limit)])
    }

    /// -32004 for a connection whose unfinished request line would take the bytes buffered for
    /// all clients' unfinished lines past `limit`; the connection then closes.
    /// `data` = `{"limit": <bytes>}`.
    public static func pendingInputOverLimit(limit: Int) -> RPCError {
        RPCError(
            code: Code.requestTooLarge,
            message:
                "Request too large: unfinished request lines of all clients may take at most \(limit) bytes; send whole lines, or retry later",
            data: ["limit": .int(limit)])
    }

    /// -32004 for a request whose answer would take `bytes`: over `limit`, the most one answer
    /// may take, or, with `unread`, more than the room left under `limit` for the answers that
    /// clients have not read yet. What it asked for ran; only the answer is withheld.
    public static func answerTooLarge(bytes: Int, limit: Int, unread: Int? = nil) -> RPCError {
        let why =
            unread.map { "the answers clients have not read yet take \($0) bytes of the \(limit) they may hold; read them, or" }
            ?? "an answer may take at most \(limit) bytes;"
        return RPCError(
            code: Code.requestTooLarge,
            message:
                "Response too large: the answer would take \(bytes) bytes; \(why) ask for less (trace.get and trace.export take since, limit and last)",
            data: ["limit": .int(limit), "bytes": .int(bytes)])
    }
}
