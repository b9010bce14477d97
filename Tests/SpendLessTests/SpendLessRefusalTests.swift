import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// Every refusal in docs/apps/spendless.md, "Intents": -32602 naming `args.<name>`, -32003 with its
/// reason, and a refused intent changes nothing.
@Suite struct SpendLessRefusalTests {
    @Test func badArgumentsAreRefusedByField() throws {
        let device = try TestDevice.spendLess()
        let before = try device.spendLessState()
        expectRefusal(invalid("args.apps")) { try device.intent("selectApps", ["apps": []]) }
        expectRefusal(invalid("args.apps[1]")) { try device.intent("selectApps", ["apps": [.string(Shop.amazon), ""]]) }
        expectRefusal(invalid("args.apps")) { try device.intent("selectApps", ["apps": [.string(Shop.amazon), .string(Shop.amazon)]]) }
        expectRefusal(invalid("args.categories[0]")) { try device.intent("selectApps", ["apps": [.string(Shop.amazon)], "categories": [""]]) }
        expectRefusal(invalid("args.type")) { try device.intent("setInterventionType", ["type": "meditation"]) }
        expectRefusal(invalid("args.type")) { try device.intent("setInterventionType", [:]) }
        expectRefusal(invalid("args.type")) { try device.intent("intervention.start", ["type": "yoga"]) }
        expectRefusal(invalid("args.outcome")) { try device.intent("intervention.finish", ["outcome": "bought"]) }
        expectRefusal(invalid("args.name")) { try device.intent("logItem", ["name": "", "price": 10]) }
        expectRefusal(invalid("args.price")) { try device.intent("logItem", ["name": "Boots", "price": -1]) }
        expectRefusal(invalid("args.price")) { try device.intent("logItem", ["name": "Boots"]) }
        expectRefusal(invalid("args.id")) { try device.intent("waitingList.resolve", ["id": 7, "decision": "buried"]) }
        expectRefusal(invalid("args.decision")) { try device.intent("waitingList.resolve", ["id": 1, "decision": "returned"]) }
        expectRefusal(invalid("args.item.price")) { try device.intent("intervention.next", ["item": ["name": "Boots", "price": -3]]) }
        #expect(throws: DeviceError.self) { try device.intent("buyNow", [:]) }
        #expect(try device.spendLessState() == before)
    }

    @Test func theAppSaysNo() throws {
        let device = try TestDevice.spendLess()
        expectRefusal(refused("noIntervention")) { try device.intent("intervention.next", [:]) }
        expectRefusal(refused("noIntervention")) { try device.intent("intervention.finish", ["outcome": "resisted"]) }
        try device.intent("intervention.start", ["type": "quickPause"], effects: [started("quickPause", app: nil)])
        expectRefusal(refused("interventionActive")) { try device.intent("intervention.start", [:]) }
        expectRefusal(refused("noApp")) { try device.intent("intervention.finish", ["outcome": "access"]) }
        #expect(try device.next() == "celebration")
        expectRefusal(refused("interventionComplete")) { try device.intent("intervention.next", [:]) }
        let state = try device.spendLessState()
        #expect(state.intervention?.type == "quickPause" && state.intervention?.step == "celebration")
        #expect(state.resistedCount == 0)
    }

    @Test func aChoiceMustFitTheStep() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", [:], effects: [started("fullFlow", app: nil)])
        expectRefusal(invalid("args.choice")) { try device.intent("intervention.next", ["choice": "logItem"]) }
        expectRefusal(invalid("args.item")) { try device.intent("intervention.next", ["item": ["name": "Boots", "price": 3]]) }
        #expect(try device.next() == "haltCheck")
        expectRefusal(invalid("args.choice")) { try device.intent("intervention.next", ["choice": "nap"]) }
        #expect(try device.next() == "reflection")
        expectRefusal(invalid("args.choice")) { try device.intent("intervention.next", [:]) }
        expectRefusal(invalid("args.choice")) { try device.intent("intervention.next", ["choice": "redirect"]) }
        #expect(try device.spendLessState().intervention?.step == "reflection")
    }

    @Test func anUnknownVariantIsRefused() throws {
        var config = DeviceConfig()
        config.app = ["variant": .string("sloppy")]
        expectRefusal(invalid("config.app.variant")) { _ = try TestDevice(app: .spendLess, config: config) }
        config.app = ["variant": .string("correct")]
        _ = try TestDevice(app: .spendLess, config: config)
    }
}
