import ControlProtocol
import DaemonTestSupport
import Foundation

/// Drives one Clarity device of a test daemon the way a user would, over the socket.
struct ClarityDriver {
    let daemon: DaemonProcess
    let device: String

    static let instagram = "com.burbn.instagram"
    static let tiktok = "com.zhiliaoapp.musically"
    static let clarity = "com.clarity.focus"
    static let messages = "com.apple.MobileSMS"

    /// A fresh device (`config` overrides per device).
    init(_ daemon: DaemonProcess, device: String, seed: Int = 11, config: JSONValue? = nil) throws {
        self.daemon = daemon
        self.device = device
        var params: JSONValue = ["device": .string(device), "app": "clarity", "seed": .int(seed)]
        if let config, case .object(var members) = params {
            members["config"] = config
            params = .object(members)
        }
        _ = try daemon.call("device.create", params)
    }

    private func params(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.merging(["device": .string(device)]) { first, _ in first })
    }

    @discardableResult
    func intent(_ name: String, _ args: [String: JSONValue] = [:]) throws -> JSONValue {
        try daemon.call("intent", params(["name": .string(name), "args": .object(args)]))
    }

    @discardableResult
    func event(_ type: String, _ fields: [String: JSONValue] = [:]) throws -> JSONValue {
        try daemon.call("event", params(fields.merging(["type": .string(type)]) { first, _ in first }))
    }

    @discardableResult
    func advance(_ seconds: Double) throws -> JSONValue {
        try daemon.call("clock.advance", params(["seconds": .double(seconds)]))
    }

    func app() throws -> JSONValue { try daemon.call("device.state", params([:]))["app"] ?? .null }

    func state() throws -> JSONValue { try daemon.call("device.state", params([:])) }

    func store(_ key: String) throws -> JSONValue { try daemon.call("store.get", params(["key": .string(key)]))["value"] ?? .null }

    func setStore(_ key: String, _ value: JSONValue) throws {
        _ = try daemon.call("store.set", params(["key": .string(key), "value": value]))
    }

    func shields() throws -> JSONValue { try daemon.call("shields.get", params([:])) }

    func shieldConfig(_ app: String) throws -> JSONValue { try daemon.call("shield.config", params(["app": .string(app)])) }

    /// The -32003 reason (or "code N") a call fails with; nil when it succeeds.
    func refusal(_ body: () throws -> JSONValue) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return error.code == -32003 ? error.data?["reason"]?.stringValue : "code \(error.code)"
        } catch {
            return "\(error)"
        }
    }

    /// The address book, Mom and Dad as important people, Instagram shielded.
    func setUpPeople(_ names: [String] = ["Mom", "Dad"]) throws {
        let book: [JSONValue] = names.enumerated().map { index, name in
            ["id": .string(name.lowercased()), "name": .string(name), "phone": .string("+1555000\(index)")]
        }
        try event("contacts.set", ["contacts": .array(book)])
        try intent("setImportantContacts", ["contacts": .array(names.map { ["id": .string($0.lowercased())] })])
        try intent("selectApps", ["apps": [.string(Self.instagram)]])
    }

    /// Puts the day at friction layer `layer` (as the monitor would have written it) and opens
    /// Clarity, which issues that layer's challenge.
    func challengeAtLayer(_ layer: Int) throws -> JSONValue {
        try setStore("frictionLevel", .int(layer))
        try event("app.open", ["app": .string(Self.clarity)])
        return try app()["challenge"] ?? .null
    }

    func effects(_ result: JSONValue, _ kind: String) -> [JSONValue] {
        (result["effects"]?.arrayValue ?? []).filter { $0["kind"] == .string(kind) }
    }
}
