import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ScrollKitty

/// A Continue pressed on TikTok at the instant Instagram's cooldown ends (docs/apps/scrollkitty.md,
/// "A cooldown ending while another app is bypassed"): the monitor's `endCooldown` reads the App
/// Group, ShieldAction records TikTok's bypass and lifts its shield, then the monitor writes the
/// shields it computed from what it read — TikTok among them. The port checks the App Group again
/// after writing and writes once more when a bypass or a selection landed meanwhile, so the shield
/// the user paid for stays lifted.
@Suite struct ScrollKittyCooldownEndRaceTests {
    static func scenario() throws -> Scenario {
        let instagram = App.instagram
        let tiktok = App.tiktok
        return try Scenario(
            "continue on TikTok as Instagram's cooldown ends", app: .scrollKitty, start: "2026-01-05T09:00:00Z",
            steps: [
                .intent(name: "selectApps", arguments: JSONArguments(["apps": [.string(instagram), .string(tiktok)]])),
                .event(.appOpen(app: instagram)),
                .waitUntil(.shieldShown(app: instagram), within: 60),
                .event(.shieldPress(app: instagram, button: .secondary)),
                .event(.appOpen(app: tiktok)),
                .waitUntil(.shieldShown(app: tiktok), within: 60),
                .advance(seconds: 899),
                .parallel([
                    [.advance(seconds: 1)],
                    [.advance(seconds: 1), .event(.shieldPress(app: tiktok, button: .secondary))],
                ]),
                .expect(.shielded(app: tiktok, is: false)),
                .expect(.shielded(app: instagram, is: true)),
            ])
    }

    /// dfs at bound 2, stopping at the first failure: none in 2,000 schedules.
    @Test func tikTokStaysUnshieldedOncePaidFor() throws {
        var plan = ExplorationPlan(strategy: .dfs, schedules: 2_000)
        plan.preemptionBound = 2
        let report = try Self.scenario().explore(plan)
        #expect(report.failures.isEmpty)
    }
}
