import ControlProtocol

/// `subscribe` and `unsubscribe`: a connection asks for the trace events of a device as
/// JSON-RPC notifications (docs/protocol.md, Subscriptions). Both answer at once, on the
/// connection's event loop: they only register with the device's ``TraceFeed``, never wait for
/// the device.
struct SubscriptionMethods: Sendable {
    let devices: DeviceService

    /// The topics a connection may subscribe to.
    static let topics = ["trace"]

    /// `subscribe`: `device` (default `default`), `topics` (default `["trace"]`), `kinds`
    /// (optional: only events of these kinds, as `trace.get` selects). `{"ok":true}`; the
    /// notifications begin once that answer is delivered.
    func subscribe(_ params: JSONValue?, _ caller: Caller) throws -> MethodReply {
        let params = try decodeParams(SubscribeParams.self, params)
        let topics = params.topics ?? Self.topics
        if topics.isEmpty {
            throw RPCError.invalidParams(field: "topics", reason: "give at least one topic: \(Self.topics.joined(separator: ", "))")
        }
        for (index, topic) in topics.enumerated() {
            guard Self.topics.contains(topic) else {
                throw RPCError.invalidParams(
                    field: "topics[\(index)]", reason: "unknown topic \(topic); known: \(Self.topics.joined(separator: ", "))")
            }
            guard !topics[..<index].contains(topic) else {
                throw RPCError.invalidParams(field: "topics[\(index)]", reason: "\(topic) is listed twice")
            }
        }
        if let problem = TraceKindSelection.problem(params.kinds) {
            throw RPCError.invalidParams(field: problem.field, reason: problem.reason)
        }
        let name = params.device ?? "default"
        let feed = try devices.slot(named: name).feed
        guard let subscription = caller.subscriptions.subscribe(to: feed, kinds: params.kinds) else {
            throw RPCError.noSuchDevice(name)
        }
        return MethodReply(result: ["ok": true], afterDelivery: subscription.activate)
    }

    /// `unsubscribe`: `device`, or every subscription of the connection when absent.
    /// `{"ok":true}`, whether or not there was one; no notification of it follows the answer.
    func unsubscribe(_ params: JSONValue?, _ caller: Caller) throws -> MethodReply {
        let params = try decodeParams(UnsubscribeParams.self, params)
        caller.subscriptions.unsubscribe(device: params.device)
        return MethodReply(result: ["ok": true])
    }
}

/// `subscribe`'s params, decoded strictly.
struct SubscribeParams: Decodable, Sendable {
    var device: String?
    var topics: [String]?
    var kinds: [String]?
}

/// `unsubscribe`'s params: `device`, or none for every subscription.
struct UnsubscribeParams: Decodable, Sendable {
    var device: String?
}
