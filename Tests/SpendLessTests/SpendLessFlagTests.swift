import ControlProtocol
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// The flag handoff (seed 002: "Extension sets `interventionTriggered` flag, main app checks on
/// `scenePhase` active"; docs/apps/spendless.md, "The flag").
@Suite struct SpendLessFlagTests {
    @Test func theShieldSetsTheFlagAndSpendLessStartsTheInterventionWhenOpened() throws {
        let device = try TestDevice.spendLess()
        try device.openShielded(Shop.amazon)
        try device.pressPause(Shop.amazon)
        var state = try device.spendLessState()
        #expect(state.interventionTriggered && state.triggeredApp == Shop.amazon && state.intervention == nil)
        try device.advance(minutes: 5)
        try device.openSpendLessWithFlag(then: [started("fullFlow", app: Shop.amazon)])
        state = try device.spendLessState()
        #expect(!state.interventionTriggered)
        #expect(state.triggeredApp == Shop.amazon, "the last pressed app stays written")
        #expect(state.intervention == .init(type: "fullFlow", step: "breathing", app: Shop.amazon, startedAt: "2026-01-05T09:05:00Z"))
    }

    @Test func withoutTheFlagOpeningSpendLessDoesNothing() throws {
        let device = try TestDevice.spendLess()
        try device.send(.appOpen(app: spendLessApp), effects: [mainAppInFront])
        #expect(try device.spendLessState().intervention == nil)
    }

    /// SpendLess was running (opened, then left for the shopping app) when the shield was
    /// pressed: nothing happens until it is active again.
    @Test func aPressWhileSpendLessRunsInTheBackgroundWaitsForItToBecomeActive() throws {
        let device = try TestDevice.spendLess()
        try device.send(.appOpen(app: spendLessApp), effects: [mainAppInFront])
        try device.openShielded(Shop.shein)
        try device.pressPause(Shop.shein)
        #expect(try device.spendLessState().intervention == nil)
        try device.openSpendLessWithFlag(then: [started("fullFlow", app: Shop.shein)])
    }

    /// Flag set twice before SpendLess looks: one intervention, for the app pressed last.
    @Test func twoPressesBeforeSpendLessLooksStartOneInterventionForTheLastApp() throws {
        let device = try TestDevice.spendLess()
        try device.openShielded(Shop.amazon)
        try device.pressPause(Shop.amazon)
        try device.openShielded(Shop.shein)
        try device.pressPause(Shop.shein)
        try device.openSpendLessWithFlag(then: [started("fullFlow", app: Shop.shein)])
        #expect(try device.spendLessState().intervention?.app == Shop.shein)
    }

    /// A double tap on `Take a pause`: two callbacks write the same keys, one intervention.
    @Test func aDoubleTapStartsOneIntervention() throws {
        let device = try TestDevice.spendLess()
        try device.openShielded(Shop.amazon)
        let app = Effect.storeWrite(suite: group, key: "interventionTriggeredApp", value: .string(Shop.amazon))
        let flag = Effect.storeWrite(suite: group, key: "interventionTriggered", value: .bool(true))
        let closed = Effect.shieldAction(app: Shop.amazon, button: .primary, response: .close)
        try device.send(.shieldPress(app: Shop.amazon, button: .primary, taps: 2), effects: [app, app, flag, flag, closed, closed, home])
        try device.openSpendLessWithFlag(then: [started("fullFlow", app: Shop.amazon)])
    }

    /// Flag set while an intervention runs: it goes on where it was, now for the new app.
    @Test func aPressDuringAnInterventionMakesItsAppTheNewOne() throws {
        let device = try TestDevice.spendLess()
        try device.triggerIntervention(from: Shop.amazon)
        #expect(try device.next() == "haltCheck")
        try device.openShielded(Shop.shein)
        try device.pressPause(Shop.shein)
        try device.openSpendLessWithFlag(then: [.app(event: "interventionRetargeted", fields: ["app": .string(Shop.shein)])])
        let state = try device.spendLessState()
        #expect(state.intervention == .init(type: "fullFlow", step: "haltCheck", app: Shop.shein, startedAt: "2026-01-05T09:00:00Z"))
        #expect(!state.interventionTriggered)
    }

    /// The panic button's intervention takes the app of a later press.
    @Test func aPressDuringAPanicInterventionGivesItAnApp() throws {
        let device = try TestDevice.spendLess()
        try device.intent("intervention.start", ["type": "breathing"], effects: [started("breathing", app: nil)])
        try device.openShielded(Shop.amazon)
        try device.pressPause(Shop.amazon)
        try device.openSpendLessWithFlag(then: [.app(event: "interventionRetargeted", fields: ["app": .string(Shop.amazon)])])
        #expect(try device.spendLessState().intervention?.app == Shop.amazon)
    }
}
