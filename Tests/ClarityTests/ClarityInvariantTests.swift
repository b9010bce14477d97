import Foundation
import Testing

@testable import Clarity
@testable import ExtensionSandbox
@_spi(Host) @testable import SimulatediOS

/// Clarity's built-in invariants, fed traces directly: each one flags what breaks its rule, lets
/// the exceptions through, and gives the same verdict whether it sees the trace at once or step
/// by step.
@Suite struct ClarityInvariantTests {
    /// A device as an invariant sees it, with the shields and App Group values given.
    private struct Context: InvariantContext {
        var appName = "clarity"
        var calendar = DeviceCalendar(start: DeviceCalendar.parseISO("2026-01-05T09:00:00Z")!, timeZone: TimeZone(identifier: "UTC")!)
        var catalog = CategoryCatalog.builtIn
        var traceSoFar: ArraySlice<TraceEntry<Effect>> = []
        var stores: [String: ShieldSettings] = [:]
        var values: [String: StoredValue] = [:]

        func storeValue(suite: String, key: String) throws(DeviceError) -> StoredValue? { values[key] }
        func shieldStores() throws(DeviceError) -> [String: ShieldSettings] { stores }
    }

    private func entry(_ sequence: Int, at seconds: Int, by actor: String, _ payload: Effect) -> TraceEntry<Effect> {
        TraceEntry(sequence: sequence, time: VirtualInstant(milliseconds: Int64(seconds) * 1000), actor: actor, sandbox: nil, payload: payload)
    }

    /// The verdict after feeding `entries` in the given slices, stopping at the first violation.
    private func verdict(
        _ invariant: AppInvariant, _ context: Context, _ entries: [TraceEntry<Effect>], slices: [Int]
    ) throws -> String? {
        var check = invariant.start()
        var start = 0
        for end in slices + [entries.count] where end >= start {
            if let violation = try check.violation(in: context, newEntries: entries[start..<end]) { return violation }
            start = end
        }
        return nil
    }

    private func friction(_ level: Int, at seconds: Int, by actor: String, seq: Int) -> TraceEntry<Effect> {
        entry(seq, at: seconds, by: actor, .storeWrite(suite: ClarityKeys.appGroup, key: ClarityKeys.frictionLevel, value: .int(level)))
    }

    @Test func frictionGoingDownWithinADayIsFlaggedButTheMonitorsResetIsNot() throws {
        let invariant = ClarityInvariants.frictionNeverDecreasesWithinADay
        let down = [friction(2, at: 60, by: "clarity.monitor", seq: 1), friction(1, at: 120, by: "clarity.app", seq: 2)]
        for slices in [[], [1]] {
            #expect(
                try verdict(invariant, Context(), down, slices: slices)
                    == "frictionLevel went from 2 down to 1 on 2026-01-05 (written by clarity.app, trace seq 2)")
        }
        let allowed = [
            friction(3, at: 60, by: "clarity.monitor", seq: 1), friction(0, at: 120, by: "clarity.monitor", seq: 2),
            friction(1, at: 180, by: "outside", seq: 3), friction(2, at: 200, by: "clarity.monitor", seq: 4),
            friction(1, at: 86_400 - 9 * 3600 + 10, by: "clarity.app", seq: 5),
        ]
        #expect(try verdict(invariant, Context(), allowed, slices: [2, 4]) == nil, "a reset by the monitor, outside writes, the next day")
        let afterReset = [
            friction(3, at: 60, by: "clarity.monitor", seq: 1), friction(0, at: 120, by: "clarity.monitor", seq: 2),
            friction(2, at: 180, by: "clarity.monitor", seq: 3), friction(1, at: 200, by: "clarity.app", seq: 4),
        ]
        #expect(
            try verdict(invariant, Context(), afterReset, slices: [1])
                == "frictionLevel went from 2 down to 1 on 2026-01-05 (written by clarity.app, trace seq 4)",
            "after a reset the count starts again from 0, and still may not go down")
    }

    @Test func aStoreShieldingWhatIsNotSelectedIsFlagged() throws {
        let invariant = ClarityInvariants.onlySelectedAppsShielded
        let selection = FamilyActivitySelectionData(applicationTokens: ["com.burbn.instagram"], categoryTokens: ["social"])
        var context = Context(values: [ClarityKeys.shieldedAppsSelection: .data(selection.encoded)])
        let apply = { (seq: Int, store: String, apps: [String], categories: CategoryPolicy) in
            self.entry(seq, at: 60, by: "clarity.monitor", .shieldApply(store: store, applications: apps, categories: categories))
        }
        let fine = [
            apply(1, "default", ["com.burbn.instagram"], .specific(["social"], except: [])),
            apply(2, ClarityKeys.focusStore, ["com.reddit.Reddit"], .all(except: [])),
        ]
        #expect(try verdict(invariant, context, fine, slices: [0, 1]) == nil)
        let stray = fine + [apply(3, "default", ["com.reddit.Reddit"], .none)]
        #expect(try verdict(invariant, context, stray, slices: [0, 2]) == "store default shields com.reddit.Reddit, which is not in the selection")
        let all = fine + [apply(3, "other", [], .all(except: []))]
        #expect(try verdict(invariant, context, all, slices: [0]) == "store other shields all categories")
        let cleared = stray + [entry(4, at: 61, by: "clarity.app", .shieldClear(store: "default"))]
        #expect(
            try verdict(invariant, context, cleared, slices: [0, 3]) == "store default shields com.reddit.Reddit, which is not in the selection",
            "looked at between the stray shield and the clear")
        #expect(try verdict(invariant, context, cleared, slices: [0]) == nil, "looked at only after the clear: nothing stray left")
        context.stores = ["default": ShieldSettings(applications: ["com.atebits.Tweetie2"])]
        #expect(
            try verdict(invariant, context, [], slices: [])
                == "store default shields com.atebits.Tweetie2, which is not in the selection", "the first look reads the device's stores")
    }

    @Test func aChallengeVerifiedWithoutThirtySecondsOfTextingIsFlagged() throws {
        let invariant = ClarityInvariants.challengeVerifiedByTexting
        let issued = entry(1, at: 0, by: "clarity.app", .app(event: "challengeIssued", fields: ["challengeId": .string("c1")]))
        let messages = entry(2, at: 10, by: "springBoard", .appState(locked: false, foregroundApp: "com.apple.MobileSMS", shieldShown: false))
        let verified = { (seq: Int, seconds: Int) in
            self.entry(seq, at: seconds, by: "clarity.app", .app(event: "challengeVerified", fields: [
                "challengeId": .string("c1"), "verificationMethod": .string("communicationCategory"),
            ]))
        }
        #expect(try verdict(invariant, Context(), [issued, messages, verified(3, 40)], slices: [1, 2]) == nil, "30 s of Messages")
        #expect(
            try verdict(invariant, Context(), [issued, messages, verified(3, 39)], slices: [2])
                == "challenge c1 was verified by Communication use at t=39.0 with 29.0 s of it since it was issued (trace seq 3)")
    }
}
