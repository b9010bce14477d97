import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// `expect {state: {path}}` reads `device.state` by a dotted path: objects by key, arrays by
/// index, nil for null, absent, out-of-range and paths through a scalar.
@Suite struct ScenarioConditionTests {
    private func stateValue(_ path: String) throws -> StoredValue? {
        let device = try makeClarityDevice()
        _ = try device.apply(.contactsSet([Contact(id: "mom", name: "Mom", phone: "+15550000"), Contact(id: "dad", name: "Dad")]))
        return try ScenarioCondition.value(at: path, on: device)
    }

    @Test func pathsFollowObjectsAndArrayIndices() throws {
        #expect(try stateValue("appName") == .string("clarity"))
        #expect(try stateValue("locked") == .bool(false))
        #expect(try stateValue("contacts.1.name") == .string("Dad"))
        #expect(try stateValue("contacts.0") == .dictionary(["id": .string("mom"), "name": .string("Mom"), "phone": .string("+15550000")]))
        #expect(try stateValue("contacts.1") == .dictionary(["id": .string("dad"), "name": .string("Dad")]))
        #expect(try stateValue("sandboxes.0.extension") != nil)
        #expect(try stateValue("app.frictionLevel") == .int(0))
        #expect(try stateValue("app") != nil)
    }

    @Test func pathsThatLeadNowhereAreNil() throws {
        #expect(try stateValue("call") == nil)
        #expect(try stateValue("contacts.1.phone") == nil)
        #expect(try stateValue("contacts.2.name") == nil)
        #expect(try stateValue("contacts.-1") == nil)
        #expect(try stateValue("contacts.name") == nil)
        #expect(try stateValue("appName.first") == nil)
        #expect(try stateValue("noSuchField") == nil)
        #expect(try stateValue("") == nil)
        #expect(try stateValue("app.noSuchField") == nil)
        #expect(try stateValue("app.frictionLevel.x") == nil)
    }

    /// Following a path while encoding finds what encoding the whole state to JSON and reading
    /// the path back finds, for every path into a state with a challenge, contacts and history.
    @Test func encodingAlongThePathFindsWhatTheJSONHolds() throws {
        let device = try makeClarityDevice()
        _ = try device.apply(.contactsSet([Contact(id: "mom", name: "Mom", phone: "+15550000")]))
        _ = try device.perform(intent: "setImportantContacts", arguments: JSONArguments(["contacts": [["id": "mom"]]]))
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 600)
        _ = try device.apply(.appOpen(app: "com.clarity.focus"))
        _ = try device.perform(intent: "challenge.open", arguments: JSONArguments([:]))
        let state = try device.appState()
        var paths = ["", "xp", "frictionLevel", "challenge", "challenge.status", "challenge.contactName", "challenge.prompt",
            "importantContacts", "importantContacts.0", "importantContacts.0.name", "importantContacts.1", "today",
            "history", "history.0", "subscription", "products", "products.0.id", "wifiGate", "wifiGate.homeNetworks",
            "focusSession", "focusSession.x", "xp.0", "nothing", "challenge.status.x"]
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(AnyEncodable(state))) as? [String: Any] ?? [:]
        paths += json.keys.sorted()
        for path in paths {
            let components = path.isEmpty ? [] : path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let expected = try ScenarioCondition.decoded(at: components[...], in: state, of: path)
            #expect(try ScenarioCondition.value(at: "app" + (path.isEmpty ? "" : ".\(path)"), on: device) == expected, "\(path)")
        }
        #expect(try ScenarioCondition.value(at: "app.challenge.status", on: device) != nil, "the state has a challenge")
    }
}

private struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
