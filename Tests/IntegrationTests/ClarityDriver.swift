import ControlProtocol
import DaemonTestSupport
import Foundation

/// Drives one Clarity device of a test daemon the way a user would, over the socket.
struct ClarityDriver {
    let daemon: DaemonProcess
    let device: String

    static let instagram = "com.burbn.instagram"

    /// A fresh device (seed 11).
    init(_ daemon: DaemonProcess, device: String) throws {
        self.daemon = daemon
        self.device = device
        _ = try daemon.call("device.create", ["device": .string(device), "app": "clarity", "seed": 11])
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

    /// The address book, Mom and Dad as important people, Instagram shielded.
    func setUpPeople(_ names: [String] = ["Mom", "Dad"]) throws {
        let book: [JSONValue] = names.enumerated().map { index, name in
            ["id": .string(name.lowercased()), "name": .string(name), "phone": .string("+1555000\(index)")]
        }
        try event("contacts.set", ["contacts": .array(book)])
        try intent("setImportantContacts", ["contacts": .array(names.map { ["id": .string($0.lowercased())] })])
        try intent("selectApps", ["apps": [.string(Self.instagram)]])
    }
}
