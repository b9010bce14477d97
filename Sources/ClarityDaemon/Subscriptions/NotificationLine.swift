import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// The lines of the notifications the daemon sends of its own accord (``ServerNotification``):
/// `{"jsonrpc":"2.0","method":…,"params":{…}}` and a `\n`, keys sorted as in every answer.
enum NotificationLine {
    /// A new trace event of `device`: the event as `trace.get` gives it, plus `device`.
    static func trace(_ effect: TracedEffect, device: String) throws -> [UInt8] {
        guard case .object(var members) = try JSONWire.value(effect) else {
            throw RPCError.internalError("a trace event did not encode as an object")
        }
        members["device"] = .string(device)
        return try line(.trace, .object(members))
    }

    /// `dropped` events of `device`, sequence numbers `from` through `to`, had no room.
    static func dropped(device: String, count: Int, from: Int, to: Int) throws -> [UInt8] {
        try line(
            .traceDropped, ["device": .string(device), "dropped": .int(count), "from": .int(from), "to": .int(to)])
    }

    /// The subscription to `device` ended, for `reason` (``TraceFeed/EndReason``).
    static func ended(device: String, reason: TraceFeed.EndReason) throws -> [UInt8] {
        try line(.traceEnded, ["device": .string(device), "reason": .string(reason.rawValue)])
    }

    private static func line(_ notification: ServerNotification, _ params: JSONValue) throws -> [UInt8] {
        var bytes = try JSONWire.bytes(RPCRequest(id: nil, method: notification.rawValue, params: params).json)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
