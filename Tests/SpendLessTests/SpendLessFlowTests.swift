import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// The intervention state machine (seed 002's diagram and service table; docs/apps/spendless.md,
/// "The intervention flow"): each type's whole path through the device, and the pure flow's table.
@Suite struct SpendLessFlowTests {
    @Test func fullFlowGoesBreathingHaltReflectionLogItemCelebration() throws {
        let device = try TestDevice.spendLess()
        try device.triggerIntervention(from: Shop.amazon)
        var state = try device.spendLessState()
        #expect(state.intervention == .init(type: "fullFlow", step: "breathing", app: Shop.amazon, startedAt: "2026-01-05T09:00:00Z"))
        #expect(try device.next() == "haltCheck")
        #expect(try device.next() == "reflection")
        #expect(try device.next(["choice": "logItem"]) == "logItem")
        #expect(
            try device.next(
                ["item": ["name": "Linen dress", "price": 89.5]],
                effects: [
                    .storeWrite(suite: group, key: "nextItemId", value: .int(2)),
                    .storeWrite(
                        suite: group, key: "waitingList",
                        value: .array([waitingItem(id: 1, name: "Linen dress", price: 89.5, addedAt: 0)])),
                    .activityStart(activity: "spendless_waitingList"),
                ]) == "celebration")
        try device.intent(
            "intervention.finish", ["outcome": "resisted"],
            effects: [finished("resisted"), .storeWrite(suite: group, key: "resistedCount", value: .int(1))])
        state = try device.spendLessState()
        #expect(state.intervention == nil)
        #expect(state.resistedCount == 1)
        #expect(state.waitingList.map(\.name) == ["Linen dress"])
        #expect(try device.shields().effective.applications == [Shop.amazon, Shop.shein], "resisting leaves the shields as they are")
    }

    @Test func fullFlowRedirectsAHaltNeed() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", [:], effects: [started("fullFlow", app: nil)])
        #expect(try device.next() == "haltCheck")
        #expect(try device.next(["choice": "redirect"]) == "haltRedirect")
        #expect(try device.next() == "celebration")
    }

    @Test func breathingGoesStraightToReflection() throws {
        let device = try TestDevice.spendLess()
        try device.intent("setInterventionType", ["type": "breathing"], effects: [
            .storeWrite(suite: group, key: "interventionType", value: .string("breathing"))
        ])
        try device.triggerIntervention(from: Shop.shein, type: "breathing")
        #expect(try device.next() == "reflection")
        #expect(try device.next(["choice": "dopamineMenu"]) == "dopamineMenu")
        #expect(try device.next() == "celebration")
    }

    @Test func haltCheckStartsAtHaltAndReflectsWithoutANeed() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", ["type": "haltCheck"], effects: [started("haltCheck", app: nil)])
        #expect(try device.spendLessState().intervention?.step == "haltCheck")
        #expect(try device.next() == "reflection")
        #expect(try device.next(["choice": "logItem"]) == "logItem")
        #expect(try device.next() == "celebration", "the item is optional")
        #expect(try device.spendLessState().waitingList.isEmpty)
    }

    @Test func goalReminderLeadsToReflection() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", ["type": "goalReminder"], effects: [started("goalReminder", app: nil)])
        #expect(try device.spendLessState().intervention?.step == "goalReminder")
        #expect(try device.next() == "reflection")
        #expect(try device.next(["choice": "dopamineMenu"]) == "dopamineMenu")
        #expect(try device.next() == "celebration")
    }

    @Test func quickPauseCelebratesAtOnce() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", ["type": "quickPause"], effects: [started("quickPause", app: nil)])
        #expect(try device.spendLessState().intervention?.step == "quickPause")
        #expect(try device.next() == "celebration")
        try device.intent("intervention.finish", ["outcome": "resisted"], effects: [
            finished("resisted"), .storeWrite(suite: group, key: "resistedCount", value: .int(1)),
        ])
    }

    /// The table itself, every step and choice (docs/apps/spendless.md, "The intervention flow").
    @Test func theFlowTable() {
        typealias Flow = InterventionFlow
        #expect(InterventionType.allCases.map(\.firstStep) == [.breathing, .haltCheck, .goalReminder, .quickPause, .breathing])
        #expect(Flow.next(after: .breathing, of: .fullFlow, choice: nil) == .success(.haltCheck))
        for type in [InterventionType.breathing, .haltCheck, .goalReminder, .quickPause] {
            #expect(Flow.next(after: .breathing, of: type, choice: nil) == .success(.reflection))
        }
        #expect(Flow.next(after: .haltCheck, of: .haltCheck, choice: nil) == .success(.reflection))
        #expect(Flow.next(after: .haltCheck, of: .haltCheck, choice: "redirect") == .success(.haltRedirect))
        #expect(Flow.next(after: .haltRedirect, of: .haltCheck, choice: nil) == .success(.celebration))
        #expect(Flow.next(after: .goalReminder, of: .goalReminder, choice: nil) == .success(.reflection))
        #expect(Flow.next(after: .quickPause, of: .quickPause, choice: nil) == .success(.celebration))
        #expect(Flow.next(after: .reflection, of: .fullFlow, choice: "logItem") == .success(.logItem))
        #expect(Flow.next(after: .reflection, of: .fullFlow, choice: "dopamineMenu") == .success(.dopamineMenu))
        #expect(Flow.next(after: .logItem, of: .fullFlow, choice: nil) == .success(.celebration))
        #expect(Flow.next(after: .dopamineMenu, of: .fullFlow, choice: nil) == .success(.celebration))
        #expect(Flow.next(after: .celebration, of: .fullFlow, choice: nil) == .failure(.complete))
        #expect(Flow.next(after: .reflection, of: .fullFlow, choice: nil) == .failure(.invalidChoice("at reflection: logItem or dopamineMenu")))
        #expect(Flow.next(after: .haltCheck, of: .fullFlow, choice: "nap") == .failure(.invalidChoice("at haltCheck: redirect, or none")))
        #expect(Flow.next(after: .breathing, of: .fullFlow, choice: "logItem") == .failure(.invalidChoice("breathing takes no choice")))
    }
}
