import ControlProtocol

/// A method's answer, and what to do once that answer has reached the client
/// (`daemon.shutdown` exits only after its `{"ok":true}` is on the wire).
struct MethodReply: Sendable {
    var result: JSONValue
    var afterDelivery: (@Sendable () -> Void)?
}

/// Who sent a request: its connection (its number for the log, its subscriptions), and the
/// journal lines its answer must wait for (none for answers given on the event loop).
struct Caller: Sendable {
    let connection: Int
    let subscriptions: ConnectionSubscriptions
    let waits: DurabilityWaits?
}

/// Maps each method to its handler, one line per method, as apple/container routes its XPC
/// messages. A method without a route goes to the fallback (the device service); a method the
/// fallback doesn't know either is -32601. Handlers throw ``RPCError`` for protocol errors;
/// anything else they throw is a bug, answered -32603 by the ``RequestDispatcher``.
struct Router: Sendable {
    typealias Handler = @Sendable (JSONValue?, Caller) throws -> MethodReply
    /// Answers a method it knows; nil when it doesn't know the method.
    /// Journal lines the answer must wait for are added to `caller.waits`; a long call may post
    /// progress to `caller.subscriptions`.
    typealias Fallback = @Sendable (_ method: String, _ params: JSONValue?, _ caller: Caller) -> Result<
        JSONValue, RPCError
    >?

    private var routes: [String: Handler] = [:]
    private let fallback: Fallback

    init(fallback: @escaping Fallback) {
        self.fallback = fallback
    }

    /// A method that needs to know who called (`subscribe`: the caller's connection).
    mutating func on(_ method: Method, _ handler: @escaping Handler) {
        routes[method.rawValue] = handler
    }

    mutating func on(_ method: Method, _ handler: @escaping @Sendable (JSONValue?) throws -> MethodReply) {
        routes[method.rawValue] = { params, _ in try handler(params) }
    }

    mutating func on(_ method: Method, _ handler: @escaping @Sendable (JSONValue?) throws -> JSONValue) {
        routes[method.rawValue] = { params, _ in MethodReply(result: try handler(params)) }
    }

    /// Whether `method` has a route of its own (`daemon.*`, `subscribe`, `unsubscribe`): such
    /// handlers answer at once, never waiting for a device, so connections run them on their
    /// event loop.
    func answersAtOnce(_ method: String) -> Bool {
        routes[method] != nil
    }

    func route(_ method: String, params: JSONValue?, caller: Caller) throws -> MethodReply {
        if let handler = routes[method] { return try handler(params, caller) }
        switch fallback(method, params, caller) {
        case .success(let result)?: return MethodReply(result: result)
        case .failure(let error)?: throw error
        case nil: throw RPCError.methodNotFound(method)
        }
    }
}
