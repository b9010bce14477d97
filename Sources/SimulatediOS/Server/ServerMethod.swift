import Foundation
import JSONValues

/// One method an observer may call on a server instance over the socket (`server.call`; a
/// registration's ``ServerRegistration/methodPrefix`` names them `<prefix>.<name>` too): its
/// params decoded strictly (an unknown member refused, named), its answer encoded as JSON.
/// A read sees the instance without moving its clock; a write changes it at its clock, and the
/// host journals the call before it answers.
public struct ServerMethod<Server: AppServer>: Sendable {
    public let name: String
    public let changesState: Bool
    let run: @Sendable (inout Server, JSONValue, ServerCallContext) throws(ServerCallError) -> JSONValue

    /// A method that reads the instance.
    public static func read<Params: Decodable & Sendable, Answer: Encodable & Sendable>(
        _ name: String, params: Params.Type,
        _ body: @escaping @Sendable (Server, Params, ServerCallContext) throws(ServerCallError) -> Answer
    ) -> Self {
        Self(name: name, changesState: false) { server, value, context throws(ServerCallError) in
            try Self.encode(try body(server, try Self.decode(params, value), context))
        }
    }

    /// A method that changes the instance (a raw client's request).
    public static func write<Params: Decodable & Sendable, Answer: Encodable & Sendable>(
        _ name: String, params: Params.Type,
        _ body: @escaping @Sendable (inout Server, Params, ServerCallContext) throws(ServerCallError) -> Answer
    ) -> Self {
        Self(name: name, changesState: true) { server, value, context throws(ServerCallError) in
            try Self.encode(try body(&server, try Self.decode(params, value), context))
        }
    }

    private static func decode<Params: Decodable>(_ type: Params.Type, _ value: JSONValue) throws(ServerCallError) -> Params {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch let error as FieldError {
            throw .invalidParams(field: error.field, reason: error.reason)
        } catch {
            throw .invalidParams(field: "params", reason: "\(error)")
        }
    }

    private static func encode(_ answer: some Encodable) throws(ServerCallError) -> JSONValue {
        do {
            return try JSONWire.value(answer)
        } catch {
            throw .failed("the answer does not encode: \(error)")
        }
    }
}

/// Who asks, as the socket names it: the instance called, and the device the params named (the
/// host resolved it to the instance that device talks to, unless the call named one).
public struct ServerCallContext: Sendable {
    /// The instance called.
    public let instance: String
    /// The `device` the params named, if any.
    public let device: String?
    /// The instance that device talks to, when it talks to one of this server's.
    public let deviceInstance: String?

    public init(instance: String, device: String?, deviceInstance: String?) {
        self.instance = instance
        self.device = device
        self.deviceInstance = deviceInstance
    }
}

/// Why a server method refused a call: a param (named as the socket spells it) or a failure.
public enum ServerCallError: Error, Sendable, Equatable {
    case invalidParams(field: String, reason: String)
    case failed(String)
}
