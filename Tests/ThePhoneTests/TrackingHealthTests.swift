import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// The seed's `TrackingHealthMonitor` when the app becomes active (docs/apps/thephone.md, "Setup
/// and tracking health"), and what the backend hears: any issue but `neverVerified` ⇒ `broken`,
/// healthy ⇒ `verified`.
@Suite struct TrackingHealthTests {
    private func open(_ device: TestDevice, _ issue: String?, hours: Int? = nil, report: Bool = true) throws {
        try device.send(
            .appOpen(app: thePhone),
            effects: [opened, healthSignpost(issue, hours: hours)] + (report ? [statusReport()] : []) + [syncRequest])
        try device.send(.appClose(app: thePhone), effects: [closed])
    }

    @Test func neverVerifiedIsReportedNowhere() throws {
        let device = try TestDevice.iPhone()
        try open(device, "neverVerified", report: false)
        #expect(try device.phone().trackingHealth == .init(healthy: false, issue: "neverVerified", hoursSinceLastUnlock: nil, lastCheck: "2026-01-05T09:00:00Z"))
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "pending")
    }

    @Test func thirtyMinutesAfterTheLastUnlockIsHealthyAndAMinuteMoreIsNot() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.advance(minutes: 30)
        try open(device, nil)
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "verified")
        try device.advance(minutes: 1)
        try open(device, "appOpenWithoutRecentUnlock")
        #expect(try device.phone().trackingHealth?.healthy == false)
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "broken")
    }

    /// The seed's integer hours: `Int(24.98) > 24` is false, so a day without unlocks is still the
    /// 30-minute issue; from 25 h it is `noRecentUnlocks`.
    @Test func twentyFourHoursIsNotYetNoRecentUnlocksButTwentyFiveIs() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.advance(hours: 24)
        try open(device, "appOpenWithoutRecentUnlock")
        try device.advance(minutes: 59)
        try open(device, "appOpenWithoutRecentUnlock")
        try device.advance(minutes: 1)
        try open(device, "noRecentUnlocks", hours: 25)
        #expect(try device.phone().trackingHealth == .init(healthy: false, issue: "noRecentUnlocks", hoursSinceLastUnlock: 25, lastCheck: "2026-01-06T10:01:00Z"))
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "broken")
    }

    /// Fixed: an unlock recorded again, the next check is healthy and the backend hears `verified`.
    @Test func aRecordedUnlockMakesTheNextCheckHealthyAgain() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.advance(hours: 30)
        try open(device, "noRecentUnlocks", hours: 30)
        try device.lockRecorded()
        try device.unlockRecorded()
        try open(device, nil)
        #expect(try BackendLook(device).trackingStatus(of: "alice") == "verified")
    }

    /// Verified, yet no unlock in the store (here: a new account on the device cleared it) ⇒ the
    /// seed's 999 hours.
    @Test func noUnlockEverAfterVerificationIs999Hours() throws {
        let device = try TestDevice.iPhone()
        try device.verifySetup()
        try device.intent(
            "account.signUp", ["username": "alice2"],
            effects: [
                .networkRequest(method: "POST", path: "/auth/register", status: 201, error: nil),
                .networkRequest(method: "GET", path: "/groups", status: 200, error: nil), syncRequest,
            ])
        #expect(try device.phone().events == 0)
        try open(device, "noRecentUnlocks", hours: 999)
    }

    @Test func theMonitorsRulesAsPureFunctions() {
        let monitor = TrackingHealthMonitor()
        let hour: Int64 = 3_600_000
        #expect(monitor.checkHealth(now: 100 * hour, verificationDate: nil, lastUnlock: 99 * hour).issue == .neverVerified)
        #expect(monitor.checkHealth(now: 100 * hour, verificationDate: 1, lastUnlock: nil).issue == .noRecentUnlocks(hoursSinceLastUnlock: 999))
        #expect(monitor.checkHealth(now: 100 * hour, verificationDate: 1, lastUnlock: 75 * hour + 1).isHealthy)
        #expect(monitor.checkHealth(now: 100 * hour, verificationDate: 1, lastUnlock: 75 * hour).issue == .noRecentUnlocks(hoursSinceLastUnlock: 25))
        #expect(monitor.onAppForeground(now: 100 * hour, lastUnlock: nil) == nil)
        #expect(monitor.onAppForeground(now: 100 * hour, lastUnlock: 100 * hour - 1_800_000) == nil)
        #expect(monitor.onAppForeground(now: 100 * hour, lastUnlock: 100 * hour - 1_800_001) == .appOpenWithoutRecentUnlock)
    }
}
