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
}
