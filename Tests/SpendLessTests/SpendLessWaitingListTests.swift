import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// The waiting list (seed 002: "`WaitingListItem` - 7-day waiting period items",
/// `NotificationManager`: "Local notifications for waiting list reminders") and the graveyard.
/// Reminders come from DeviceActivity waking the monitor at `readyAt`, so they need no app running.
@Suite struct SpendLessWaitingListTests {
    private let day = 24.0 * 3600
    private let reminderActivity = "spendless_waitingList"

    private func reminder(_ name: String) -> Effect {
        .notification(title: "Still want it?", body: "\(name) has waited 7 days. Decide with a clear head: bury it or buy it.")
    }

    @Test func anItemIsReadyAfterSevenDaysWithAReminder() throws {
        let device = try TestDevice.spendLess()
        let boots = waitingItem(id: 1, name: "Boots", price: 120, addedAt: 0)
        try device.intent(
            "logItem", ["name": "Boots", "price": 120],
            effects: [
                .storeWrite(suite: group, key: "nextItemId", value: .int(2)),
                .storeWrite(suite: group, key: "waitingList", value: .array([boots])),
                .activityStart(activity: reminderActivity),
            ])
        try device.advance(seconds: day)
        let bag = waitingItem(id: 2, name: "Bag", price: 60, addedAt: day)
        try device.intent(
            "logItem", ["name": "Bag", "price": 60],
            effects: [
                .storeWrite(suite: group, key: "nextItemId", value: .int(3)),
                .storeWrite(suite: group, key: "waitingList", value: .array([boots, bag])),
            ])
        var state = try device.spendLessState()
        #expect(state.waitingList.map(\.readyAt) == ["2026-01-12T09:00:00Z", "2026-01-13T09:00:00Z"])
        #expect(state.waitingList.map(\.ready) == [false, false])
        try device.advance(seconds: week - day - 1)
        try device.advance(
            seconds: 1,
            effects: [
                .monitorIntervalStart(activity: reminderActivity),
                .storeWrite(
                    suite: group, key: "waitingList",
                    value: .array([waitingItem(id: 1, name: "Boots", price: 120, addedAt: 0, reminded: true), bag])),
                reminder("Boots"),
                .activityStart(activity: reminderActivity),
            ])
        state = try device.spendLessState()
        #expect(state.waitingList.map(\.ready) == [true, false])
        try device.advance(
            seconds: day,
            effects: [
                .monitorIntervalStart(activity: reminderActivity),
                .storeWrite(
                    suite: group, key: "waitingList",
                    value: .array([
                        waitingItem(id: 1, name: "Boots", price: 120, addedAt: 0, reminded: true),
                        waitingItem(id: 2, name: "Bag", price: 60, addedAt: day, reminded: true),
                    ])),
                reminder("Bag"),
                .activityStop(activity: reminderActivity),
                .monitorIntervalEnd(activity: reminderActivity),
            ])
        #expect(try device.spendLessState().waitingList.map(\.ready) == [true, true])
    }

    @Test func buryingMovesAnItemToTheGraveyardAndBuyingRemovesIt() throws {
        let device = try TestDevice.spendLess()
        device.exhaustivity = .kinds(["store.write"])
        try device.intent("logItem", ["name": "Boots", "price": 120], effects: [
            .storeWrite(suite: group, key: "nextItemId", value: .int(2)),
            .storeWrite(suite: group, key: "waitingList", value: .array([waitingItem(id: 1, name: "Boots", price: 120, addedAt: 0)])),
        ])
        try device.intent("logItem", ["name": "Bag", "price": 60], effects: [
            .storeWrite(suite: group, key: "nextItemId", value: .int(3)),
            .storeWrite(
                suite: group, key: "waitingList",
                value: .array([
                    waitingItem(id: 1, name: "Boots", price: 120, addedAt: 0), waitingItem(id: 2, name: "Bag", price: 60, addedAt: 0),
                ])),
        ])
        device.exhaustivity = .observable
        try device.advance(seconds: 3600)
        try device.intent(
            "waitingList.resolve", ["id": 1, "decision": "buried"],
            effects: [
                .storeWrite(suite: group, key: "waitingList", value: .array([waitingItem(id: 2, name: "Bag", price: 60, addedAt: 0)])),
                .storeWrite(
                    suite: group, key: "graveyard",
                    value: .array([.dictionary(["name": .string("Boots"), "price": .double(120), "buriedAt": .double(3600)])])),
            ])
        try device.intent(
            "waitingList.resolve", ["id": 2, "decision": "bought"],
            effects: [.storeWrite(suite: group, key: "waitingList", value: .array([]))])
        let state = try device.spendLessState()
        #expect(state.waitingList.isEmpty)
        #expect(state.graveyard == [.init(name: "Boots", price: 120, buriedAt: "2026-01-05T10:00:00Z")])
        expectRefusal(invalid("args.id")) { try device.intent("waitingList.resolve", ["id": 1, "decision": "bought"]) }
        // The reminder scheduled for Boots finds nothing left to remind and stops.
        try device.advance(
            seconds: week,
            effects: [
                .monitorIntervalStart(activity: reminderActivity),
                .activityStop(activity: reminderActivity),
                .monitorIntervalEnd(activity: reminderActivity),
            ])
    }

    /// Every resisted urge counts, whatever the step it was finished at.
    @Test func resistingCountsEveryTime() throws {
        let device = try TestDevice.spendLess()
        for count in 1...3 {
            try device.intent("intervention.start", [:], effects: [started("fullFlow", app: nil)])
            try device.intent(
                "intervention.finish", ["outcome": "resisted"],
                effects: [finished("resisted"), .storeWrite(suite: group, key: "resistedCount", value: .int(count))])
        }
        #expect(try device.spendLessState().resistedCount == 3)
    }
}
