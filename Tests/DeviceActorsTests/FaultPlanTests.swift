import ExtensionSandbox
import Testing

@testable import DeviceActors

/// Faults as choices (docs/scenarios.md, Faults): seeded like a schedule, replayed from the sites
/// a run recorded, written in tokens.
@Suite struct FaultPlanTests {
    /// Meets `sites` sites of each kind in turn, as a run meets them; returns what fired.
    private func meet(_ plan: FaultPlan, sites: Int) -> [FaultSite] {
        var plan = plan
        for _ in 0..<sites {
            _ = plan.fires(.jetsam)
            _ = plan.fires(.callbackDropped)
        }
        return plan.fired
    }

    @Test func theSameSeedFiresTheSameFaultsAndOnlyEnabledKinds() {
        let fired = meet(.seeded(7, enabled: [.jetsam]), sites: 800)
        #expect(fired == meet(.seeded(7, enabled: [.jetsam]), sites: 800))
        #expect(fired != meet(.seeded(8, enabled: [.jetsam]), sites: 800))
        #expect(fired.allSatisfy { $0.fault == .jetsam })
        #expect((25...75).contains(fired.count), "about one site in \(FaultPlan.oneIn): \(fired.count) of 800")
        #expect(fired.map(\.index) == fired.map(\.index).sorted())
    }

    @Test func aReplayFiresExactlyTheRecordedSitesAndNoPlanFiresNone() {
        let recorded = meet(.seeded(3, enabled: Set(Fault.allCases)), sites: 200)
        #expect(recorded.contains { $0.fault == .callbackDropped } && recorded.contains { $0.fault == .jetsam })
        #expect(meet(.replaying(recorded), sites: 200) == recorded)
        #expect(meet(.replaying([FaultSite(.jetsam, at: 2)]), sites: 5) == [FaultSite(.jetsam, at: 2)])
        var short = FaultPlan.replaying([FaultSite(.jetsam, at: 2), FaultSite(.callbackDropped, at: 9)])
        for _ in 0..<3 { _ = short.fires(.jetsam) }
        #expect(short.unmetSites == [FaultSite(.callbackDropped, at: 9)], "a site the run never reached")
        #expect(short.sitesMet(of: .jetsam) == 3)
        #expect(meet(.none, sites: 200).isEmpty)
        #expect(meet(.seeded(3, enabled: []), sites: 200).isEmpty)
    }

    @Test func aTokenCarriesItsFaultsAndRefusesBadOnes() throws {
        let token = ScheduleToken(
            scenarioHash: "6873a33849b27d80", deviations: [.init(decision: 4, task: 9)],
            faults: [FaultSite(.jetsam, at: 4), FaultSite(.callbackDropped, at: 0)])
        #expect(token.description == "v2:6873a33849b27d80:4@9:callbackDropped@0,jetsam@4")
        #expect(try ScheduleToken.parse(token.description).get() == token)
        #expect(try ScheduleToken.parse("v2:6873a33849b27d80::jetsam@3").get().faults == [FaultSite(.jetsam, at: 3)])
        #expect(try ScheduleToken.parse("v2:6873a33849b27d80:4@9").get().faults.isEmpty)
        for bad in ["v2:ab::jetsam@x", "v2:ab::meteor@1", "v2:ab::jetsam@1,jetsam@1", "v2:ab::jetsam@-1", "v2:ab::", "v2:ab:1@2:x:y"] {
            #expect(throws: ScheduleToken.TokenError.self, "\(bad)") { try ScheduleToken.parse(bad).get() }
        }
    }
}
