import ControlProtocol

/// A method's answer, and what to do once that answer has reached the client
/// (`daemon.shutdown` exits only after its `{"ok":true}` is on the wire).
struct MethodReply: Sendable {
    /// The answer's result: a value, or one written once already (a constant answer).
    enum Result: Sendable {
        case value(JSONValue)
        case written(JSONText)
    }

    var result: Result
    var afterDelivery: (@Sendable () -> Void)?

    init(result: JSONValue, afterDelivery: (@Sendable () -> Void)? = nil) {
        self.result = .value(result)
        self.afterDelivery = afterDelivery
    }

    init(written: JSONText) {
        result = .written(written)
    }
}

/// Who sent a request: its connection (its number for the log, its subscriptions), the journal
/// lines its answer must wait for (none for answers given on the event loop), and whether its
/// answer is still wanted (a long request stops when it is not).
struct Caller: Sendable {
    let connection: Int
    let subscriptions: ConnectionSubscriptions
    let waits: DurabilityWaits?
    let cancellation: RequestCancellation
    /// The request's id, when it has one (`scenario.cancel` finds an exploration by it).
    var requestID: RPCID?
}

/// The daemon's one routing table: each method, where it runs and its handler, one line per
/// method (wired in Routes.swift), as apple/container routes its XPC messages. A method
/// without a route is -32601. Handlers throw ``RPCError`` for protocol errors; anything else
/// they throw is a bug, answered -32603 by the ``RequestDispatcher``.
struct Router: Sendable {
    typealias Handler = @Sendable (JSONValue?, Caller) throws -> MethodReply

    /// Where a method runs (see ``Connection``).
    enum RunsOn: Sendable {
        /// At once, on the connection's event loop: the handler never waits for a device.
        case eventLoop
        /// On the lane of the device its params name (`device`, default `default`:
        /// ``DeviceLanes``), behind the device's other requests.
        case deviceLane
        /// Off the event loop, on the connection's own queue: a method that visits every device,
        /// or hands its work to the scenario threads and waits for it.
        case ownThread
    }

    /// Where one method runs and what answers it.
    struct Route: Sendable {
        let runsOn: RunsOn
        let handler: Handler
    }

    /// The routes by the length of their method's name in UTF-8, then by name: a request's
    /// method is found with one index and a comparison or two of short strings, cheaper than
    /// hashing every name (docs/performance.md, "Router: routes by name length").
    private var routesByLength: [[(method: String, route: Route)]] = []

    /// The methods routed.
    var methods: Set<String> { Set(routesByLength.joined().map(\.method)) }

    /// Routes `method` to `handler`, which is told who called (`subscribe`: the caller's
    /// connection; a device method: the journal lines to wait for). A method is routed once.
    mutating func on(_ method: Method, _ runsOn: RunsOn, _ handler: @escaping Handler) {
        on(named: method.rawValue, runsOn, handler)
    }

    /// Routes the method `name`: one of the protocol's, or one a registered server answers to
    /// (`backend.users`).
    mutating func on(named name: String, _ runsOn: RunsOn, _ handler: @escaping Handler) {
        precondition(route(for: name) == nil, "\(name) is routed twice")
        let length = name.utf8.count
        routesByLength.grow(toHold: length, with: [])
        routesByLength[length].append((name, Route(runsOn: runsOn, handler: handler)))
    }

    mutating func on(_ method: Method, _ runsOn: RunsOn, _ handler: @escaping @Sendable (JSONValue?, Caller) throws -> JSONValue) {
        on(method, runsOn) { params, caller in MethodReply(result: try handler(params, caller)) }
    }

    mutating func on(_ method: Method, _ runsOn: RunsOn, _ handler: @escaping @Sendable (JSONValue?) throws -> MethodReply) {
        on(method, runsOn) { params, _ in try handler(params) }
    }

    mutating func on(_ method: Method, _ runsOn: RunsOn, _ handler: @escaping @Sendable (JSONValue?) throws -> JSONValue) {
        on(method, runsOn) { params, _ in MethodReply(result: try handler(params)) }
    }

    /// Routes `method` to a handler whose answer is written once (``JSONText``).
    mutating func on(_ method: Method, _ runsOn: RunsOn, _ handler: @escaping @Sendable (JSONValue?) throws -> JSONText) {
        on(method, runsOn) { params, _ in MethodReply(written: try handler(params)) }
    }

    /// The route of `method`; nil for a method without one.
    func route(for method: String) -> Route? {
        let length = method.utf8.count
        guard length < routesByLength.count else { return nil }
        return routesByLength[length].first { $0.method == method }?.route
    }

    /// Where `method` runs; an unknown method is answered at once (-32601).
    func runsOn(_ method: String) -> RunsOn {
        route(for: method)?.runsOn ?? .eventLoop
    }

    /// Runs `method` by its route (`route`, when the caller looked it up already).
    func route(_ method: String, params: JSONValue?, caller: Caller, by route: Route? = nil) throws -> MethodReply {
        guard let route = route ?? self.route(for: method) else { throw RPCError.methodNotFound(method) }
        return try route.handler(params, caller)
    }
}
