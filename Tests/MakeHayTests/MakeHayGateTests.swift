import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import MakeHay

/// The health gate (seed 003, Stories 2, 5–7; docs/apps/makehay.md, "The gate"): blocked below the
/// goal, unblocked at it, evaluated when the app becomes active and when its observer query fires.
@Suite struct MakeHayGateTests {
    @Test func theDefaultGoalIsTenThousandStepsAndZeroStepsBlock() throws {
        let device = try TestDevice.makeHay()
        let state = try device.makeHayState()
        #expect(state.goal == HealthGoal(kind: .steps, target: 10_000))
        #expect(state.blocked)
        #expect(state.lastEvaluation?.outcome == .blocked && state.lastEvaluation?.trigger == .intent)
        #expect(state.lastEvaluation?.value == 0)
        #expect(state.lastCheckedDate == "2026-01-05")
        #expect(state.inMemory)
    }

    /// While the app is in memory its observer fires at each sample (Story 8).
    @Test func stepsBelowTheGoalKeepTheBlockAndReachingItLiftsIt() throws {
        let device = try TestDevice.makeHay()
        try device.walk(9_999, effects: [])
        #expect(try device.makeHayState().lastEvaluation?.value == 9_999)
        #expect(try device.makeHayState().lastEvaluation?.trigger == .observer)
        try device.walk(1, effects: [.shieldClear(store: "default")])
        let state = try device.makeHayState()
        #expect(state.blocked == false && state.today.steps == 10_000)
        #expect(try device.shields().effective.applications.isEmpty)
    }

    /// Story 7: nothing at midnight itself; the first evaluation after it blocks again.
    @Test func theFirstEvaluationAfterMidnightBlocksAgain() throws {
        let device = try TestDevice.makeHay()
        try device.walk(10_000, effects: [.shieldClear(store: "default")])
        try device.advance(minutes: 15 * 60 + 1, effects: [])
        #expect(try device.shields().effective.applications.isEmpty, "midnight itself changes nothing")
        try device.send(
            .appOpen(app: "com.makehay.app"),
            effects: [
                .appState(locked: false, foregroundApp: "com.makehay.app", shieldShown: false),
                .storeWrite(suite: group, key: "lastCheckedDate", value: .string("2026-01-06")),
                .shieldApply(store: "default", applications: [instagram], categories: .none),
            ])
        #expect(try device.makeHayState().today.steps == 0)
    }

    /// Story 8's fail-safe: a failed query leaves the shields as they were.
    @Test func aFailedQueryLeavesTheShieldsAsTheyWere() throws {
        let device = try TestDevice.makeHay()
        try device.send(.healthFail(count: 1), effects: [.healthFail(count: 1)])
        try device.walk(12_000, effects: [])
        let failed = try device.makeHayState()
        #expect(failed.blocked && failed.lastEvaluation?.outcome == .failed && failed.lastEvaluation?.value == nil)
        #expect(try device.appState()["lastEvaluation"]?["value"] == .null, "a failed evaluation writes value null, not nothing")
        #expect(try device.shields().effective.applications == [instagram])
        try device.walk(1, effects: [.shieldClear(store: "default")])
    }

    @Test func otherGoalKindsAreEvaluatedByTheirOwnQuantity() throws {
        let device = try TestDevice.makeHay()
        try device.intent(
            "setGoal", ["kind": "activeEnergy", "target": 300],
            effects: [
                .storeWrite(
                    suite: group, key: "healthGoal",
                    value: .data(try HealthGoal(kind: .activeEnergy, target: 300).encoded()))
            ])
        try device.walk(20_000, effects: [])
        try device.send(
            .healthSample(kind: .activeEnergy, value: 300),
            effects: [.healthSample(kind: "activeEnergy", value: 300), .shieldClear(store: "default")])
    }

    /// The stepper of 500 (Story 2) and the project's ranges for the other kinds.
    static let refusedGoals: [(JSONValue, String)] = [
        (["kind": "steps", "target": 10_250], "args.target"),
        (["kind": "steps", "target": 0], "args.target"),
        (["kind": "steps", "target": 100_500], "args.target"),
        (["kind": "activeEnergy", "target": 15], "args.target"),
        (["kind": "exerciseMinutes", "target": 301], "args.target"),
        (["kind": "sleep", "target": 8], "args.kind"),
    ]

    @Test(arguments: refusedGoals)
    func setGoalRefusesWhatTheStepperCannotSet(args: JSONValue, field: String) throws {
        let device = try TestDevice.makeHay()
        #expect {
            try device.intent("setGoal", args)
        } throws: { error in
            guard case .invalidArgument(let named, _) = error as? DeviceError else { return false }
            return named == field
        }
        #expect(try device.makeHayState().goal == .standard)
    }

    @Test func aStepGoalIsAlsoTheSeedsDailyStepGoal() throws {
        let device = try TestDevice.makeHay()
        try device.intent(
            "setGoal", ["kind": "steps", "target": 500],
            effects: [
                .storeWrite(suite: group, key: "healthGoal", value: .data(try HealthGoal(kind: .steps, target: 500).encoded())),
                .storeWrite(suite: group, key: "dailyStepGoal", value: .int(500)),
            ])
        try device.walk(500, effects: [.shieldClear(store: "default")])
    }

    @Test func forceBlockShieldsAtOnce() throws {
        let device = try TestDevice.makeHay()
        try device.walk(10_000, effects: [.shieldClear(store: "default")])
        try device.intent(
            "forceBlock", ["enabled": true], effects: [.shieldApply(store: "default", applications: [instagram], categories: .none)])
        #expect(try device.makeHayState().blocked)
    }
}
