import Foundation

/// A JSON-RPC 2.0 error object with the codes of the clarityd protocol (docs/protocol.md).
public struct RPCError: Error, Sendable, Hashable, Codable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The protocol's error codes.
    public enum Code {
        public static let parseError = -32700
        public static let invalidRequest = -32600
        public static let methodNotFound = -32601
        public static let invalidParams = -32602
        public static let internalError = -32603
        public static let noSuchDevice = -32000
        public static let deviceExists = -32001
        public static let unknownName = -32002
        public static let refused = -32003
        public static let requestTooLarge = -32004
        public static let scenarioInvalid = -32005
        public static let storageFailed = -32006
        public static let busy = -32007
        public static let cancelled = -32008
        public static let recording = -32009
    }

    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: Code.parseError, message: "Parse error: \(detail)")
    }

    public static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(code: Code.invalidRequest, message: "Invalid request: \(reason)")
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: Code.methodNotFound, message: "Method not found: \(method)", data: ["method": .string(method)])
    }

    /// -32602 with `data` = `{"field": "<json path>", "reason": "<why>"}`.
    public static func invalidParams(field: String, reason: String) -> RPCError {
        RPCError(
            code: Code.invalidParams, message: "Invalid params: \(field): \(reason)",
            data: ["field": .string(field), "reason": .string(reason)])
    }

    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: Code.internalError, message: "Internal error: \(detail)")
    }

    public static func noSuchDevice(_ name: String) -> RPCError {
        RPCError(code: Code.noSuchDevice, message: "No such device: \(name)", data: ["device": .string(name)])
    }

    public static func deviceExists(_ name: String) -> RPCError {
        RPCError(code: Code.deviceExists, message: "Device already exists: \(name)", data: ["device": .string(name)])
    }

    /// -32002: an unknown app, event type or intent. `kind` is `app`, `event` or `intent`; the
    /// message lists the `known` names and suggests the nearest
    /// (`Unknown intent: setWifiGate (did you mean setWiFiGate? known: …)`), and `data` carries
    /// `known` and, when there is one, `suggestion`.
    public static func unknownName(kind: String, name: String, known: [String] = []) -> RPCError {
        let label = kind == "event" ? "event type" : kind
        var data: [String: JSONValue] = ["kind": .string(kind), "name": .string(name)]
        var notes: [String] = []
        if let suggestion = Spelling.nearest(to: name, among: known) {
            data["suggestion"] = .string(suggestion)
            notes.append("did you mean \(suggestion)?")
        }
        if !known.isEmpty {
            data["known"] = .array(known.map(JSONValue.string))
            notes.append("known: \(known.joined(separator: ", "))")
        }
        let detail = notes.isEmpty ? "" : " (\(notes.joined(separator: " ")))"
        return RPCError(code: Code.unknownName, message: "Unknown \(label): \(name)\(detail)", data: .object(data))
    }

    /// -32003: the simulated platform refused; `reason` names the case (e.g. `intervalTooShort`).
    public static func refused(reason: String, message: String) -> RPCError {
        RPCError(code: Code.refused, message: message, data: ["reason": .string(reason)])
    }

    public static func requestTooLarge(limit: Int) -> RPCError {
        RPCError(
            code: Code.requestTooLarge, message: "Request too large: a line may hold at most \(limit) bytes",
            data: ["limit": .int(limit)])
    }

    /// -32006: the state directory refused a write (disk full, read-only, I/O error). What the
    /// request changed was undone: nothing that was not saved is kept. `data.reason` is the
    /// system's error.
    public static func storageFailed(_ what: String, reason: String) -> RPCError {
        RPCError(
            code: Code.storageFailed, message: "Storage failed: \(what): \(reason)", data: ["reason": .string(reason)])
    }

    /// -32007: the daemon has as much of this kind of work admitted as it takes (`limit`
    /// requests, running or waiting); nothing ran. Retry once one has finished.
    public static func busy(limit: Int) -> RPCError {
        RPCError(
            code: Code.busy,
            message: "Busy: \(limit) scenario requests are already running or waiting for a thread; try again when one has finished",
            data: ["limit": .int(limit)])
    }

    /// -32008: the request was cancelled before it finished (`reason`: `cancelled` — its caller
    /// went away or `scenario.cancel` — or `shutdown`).
    public static func cancelled(reason: String) -> RPCError {
        RPCError(
            code: Code.cancelled, message: "Cancelled: the request was stopped before it finished (\(reason))",
            data: ["reason": .string(reason)])
    }

    /// -32009: a recording of `device` cannot start or stop as asked; `reason` says why
    /// (docs/protocol.md, Errors: `recording`, `notRecording`, `wallClock`, `compacted`,
    /// `unrecordable`, `diverged`, `tooLong`). An input no scenario step expresses is named by
    /// its `method` and the virtual time `t` it ran at.
    public static func recording(device: String, reason: String, message: String, method: String? = nil, t: Double? = nil)
        -> RPCError
    {
        var data: [String: JSONValue] = ["device": .string(device), "reason": .string(reason)]
        if let method { data["method"] = .string(method) }
        if let t { data["t"] = .double(t) }
        return RPCError(code: Code.recording, message: "Recording: \(message)", data: .object(data))
    }

    public static func scenarioInvalid(field: String, reason: String) -> RPCError {
        RPCError(
            code: Code.scenarioInvalid, message: "Scenario invalid: \(field): \(reason)",
            data: ["field": .string(field), "reason": .string(reason)])
    }
}
