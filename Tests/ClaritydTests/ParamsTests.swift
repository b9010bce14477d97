import ControlProtocol
import DeviceActors
import Foundation
import ScenarioFiles
import Testing

@_spi(Host) @testable import SimulatediOS
@testable import ClarityDaemon

/// Every device method decodes its params strictly: a wrong type, a missing field or a member
/// the method doesn't take is -32602 naming the field by its JSON path.
@Suite struct DeviceParamsTests {
    private func failure<P: Decodable>(_ type: P.Type, _ params: JSONValue?) -> RPCError? {
        do {
            _ = try decodeParams(type, params)
            return nil
        } catch {
            return error
        }
    }

    private func field<P: Decodable>(_ type: P.Type, _ params: JSONValue?) -> String? {
        failure(type, params)?.data?["field"]?.stringValue
    }

    @Test func wrongTypesNameTheirJSONPath() {
        #expect(field(AdvanceParams.self, ["seconds": "ten"]) == "seconds")
        #expect(field(ActivityStartParams.self, ["name": "a", "schedule": ["intervalStart": ["hour": "x"]]]) == "schedule.intervalStart.hour")
        #expect(field(StoreKeyParams.self, [:]) == "key")
        #expect(failure(StoreKeyParams.self, [:])?.data?["reason"] == "required")
    }

    @Test func unknownMembersAreRefusedWithTheNearestName() {
        let error = failure(StoreKeyParams.self, ["key": "k", "suit": "group.x"])
        #expect(error?.code == RPCError.Code.invalidParams)
        #expect(error?.data?["field"] == "suit")
        #expect(error?.data?["reason"] == "unknown; did you mean suite?")
        #expect(field(ConfigParams.self, ["config": ["baselinebytes": 1]]) == "config.baselinebytes")
        #expect(field(EventParams.self, ["type": "lock", "app": "com.x"]) == "app")
        #expect(field(NoParams.self, ["device": "x"]) == "device")
    }

    @Test func anUnknownEventTypeIsUnknownNameWithASuggestion() {
        let error = failure(EventParams.self, ["type": "unlokc"])
        #expect(error?.code == RPCError.Code.unknownName)
        #expect(error?.data?["suggestion"] == "unlock")
        #expect(error?.message.hasPrefix("Unknown event type: unlokc (did you mean unlock? known: lock, unlock,") == true)
    }

    @Test func storeRemoveTakesTheValueTheContractListsForIt() throws {
        #expect(try decodeParams(StoreRemoveParams.self, ["key": "k", "value": 1]).key == "k")
    }

    @Test func storeSetNeedsAValue() {
        #expect(failure(StoreSetParams.self, ["key": "k"])?.data?["reason"] == "required (use store.remove to delete a key)")
        #expect(failure(StoreSetParams.self, ["key": "k", "value": nil])?.data?["field"] == "value")
    }

    @Test func paramsMustBeAnObject() {
        #expect(field(DeviceOnlyParams.self, .array([1])) == "params")
        #expect(throws: Never.self) { try decodeParams(DeviceOnlyParams.self, nil) }
    }

    @Test func intentArgumentsKeepTheirPathUnderArgs() {
        struct Apps: Decodable { var apps: [String] }
        #expect(throws: DeviceError.invalidArgument(field: "args.apps[0]", reason: "expected a string, got a number (1)")) {
            _ = try JSONIntentArguments(value: ["apps": [1]]).decode(Apps.self)
        }
    }
}
