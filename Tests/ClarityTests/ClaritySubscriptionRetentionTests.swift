import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// Subscription tiers and retention (seed 000 tasks 8, 9), in process. A restart and bad input
/// as a client sees it stay over the socket (IntegrationTests).
@Suite struct ClaritySubscriptionRetentionTests {
    private let group = ClarityKeys.appGroup
    private let instagram = BundleID.instagram
    private let monthly = "com.clarity.focus.monthly"
    private let yearly = "com.clarity.focus.yearly"

    /// The main app tells the extensions whether the user has Pro (trial or subscription).
    private func isSubscribed(_ value: Bool) -> Effect {
        .storeWrite(suite: group, key: "isSubscribed", value: .bool(value))
    }

    @Test func trialThenFreeTierLimitsThenStoreKitTransactions() throws {
        let device = try TestDevice.clarity()
        #expect(try device.appState()["subscription"] == "trial")
        func selectTwoApps() throws {
            try device.intent("selectApps", ["apps": [.string(instagram), .string(BundleID.tiktok)]])
        }
        try device.withExhaustivity(.off) { try selectTwoApps() }
        #expect(try device.value(forKey: "isSubscribed") == .bool(true))

        try device.withExhaustivity(.off) {
            try device.advance(seconds: 7 * 86_400, effects: [isSubscribed(false)])
        }
        #expect(try device.appState()["subscription"] == "none")
        #expect(try device.value(forKey: "isSubscribed") == .bool(false))
        #expect(try refusal { try selectTwoApps() } == "subscriptionRequired")
        #expect(try refusal { try device.intent("setWiFiGate", ["enabled": true]) } == "subscriptionRequired")
        #expect(try refusal { try device.intent("setProsocial", ["enabled": true]) } == "subscriptionRequired")
        try device.withExhaustivity(.off) {
            try device.intent("focus.start", ["minutes": 10])
            try device.intent("focus.end")
        }
        #expect(try refusal { try device.intent("focus.start", ["minutes": 10]) } == "subscriptionRequired")

        #expect(
            try refusal { try device.send(.storeKitPurchase(product: "com.clarity.focus.lifetime")) }
                == "productNotFound")
        try device.send(
            .storeKitPurchase(product: monthly),
            effects: [.storeKit(transaction: "purchase", product: monthly), isSubscribed(true)])
        #expect(try device.appState()["subscription"] == "monthly")
        try device.withExhaustivity(.off) {
            try selectTwoApps()
            try device.intent("focus.start", ["minutes": 10])
            try device.intent("focus.end")
        }
        try device.send(
            .storeKitPurchase(product: yearly), effects: [.storeKit(transaction: "purchase", product: yearly)])
        #expect(try device.appState()["subscription"] == "yearly")
        try device.send(
            .storeKitRefund(product: yearly),
            effects: [.storeKit(transaction: "refund", product: yearly), isSubscribed(false)])
        #expect(try device.appState()["subscription"] == "none")
        #expect(try device.intent("restorePurchases") == ["subscription": "none"])
        #expect(try refusal { try device.send(.storeKitExpire(product: monthly)) } == "noActiveTransaction")
    }

    @Test func freeTierStopsFrictionAtLayerTwo() throws {
        let device = try TestDevice.clarity(thresholdsMinutes: [1, 2, 3, 4, 5])
        try device.withExhaustivity(.off) {
            try device.advance(seconds: 8 * 86_400)
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.send(.appOpen(app: instagram))
            try device.advance(minutes: 2)
        }
        #expect(try device.value(forKey: "frictionLevel") == .int(2))
        try device.withExhaustivity(.off) {
            try device.send(.shieldPress(app: instagram, button: .secondary))
        }
        // The monitor is called at layers 3–5 and does nothing: no level, no shield.
        try device.advance(
            minutes: 10,
            effects: (3...5).map { .monitorThreshold(activity: "clarity_friction", event: "friction_layer_\($0)") })
        #expect(try device.value(forKey: "frictionLevel") == .int(2))

        try device.withExhaustivity(.off) {
            try device.send(.storeKitPurchase(product: monthly))
            try device.send(.lock)
            try device.advance(seconds: 86_400)
            try device.send(.unlock)
            try device.send(.appOpen(app: instagram))
            try device.advance(minutes: 2)
            try device.send(.shieldPress(app: instagram, button: .secondary))
        }
        try device.advance(
            minutes: 1,
            effects: frictionLayer(
                3, store: "friction", app: instagram,
                shield: frictionShield(
                    title: "What are you looking for?", subtitle: "Or call someone instead of scrolling")))
        #expect(try device.value(forKey: "frictionLevel") == .int(3))
    }

    @Test func oldDataIsCleanedUpAfterThirtyDaysAndSnapshotsAfterNinety() throws {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        let challenge = try device.challengeAtLayer(4)
        try device.withExhaustivity(.off) { try device.intent("challenge.open") }
        try device.placeCall(talking: 90)
        try device.send(
            .callEnd(handle: nil),
            effects: [
                .app(
                    event: "challengeVerified",
                    fields: [
                        "challengeId": .string(challenge), "status": .string("verified"),
                        "verificationMethod": .string("callObserver"), "xpEarned": .int(25),
                    ]),
                .app(
                    event: "xpAwarded",
                    fields: [
                        "xp": .int(25), "totalXP": .int(25), "challengeId": .string(challenge),
                        "verificationMethod": .string("callObserver"),
                    ]),
                .app(
                    event: "contactPicked",
                    fields: ["contactName": .string("Mom"), "contactId": .string("mom"), "pick": .string("random")]),
            ])
        try device.intent("logMood", ["mood": 4])
        try device.withExhaustivity(.off) {
            try device.intent("focus.start", ["minutes": 15])
            try device.advance(minutes: 15)
        }
        var history = try device.appState()["history"]
        #expect(history?["challenges"] == 1)
        #expect(history?["connectionLogs"] == 1)
        #expect(history?["focusSessions"] == 1)
        #expect(history?["moodEntries"] == 1)

        try device.withExhaustivity(.off) { try device.advance(seconds: 31 * 86_400) }
        let app = try device.appState()
        history = app["history"]
        #expect(history?["challenges"] == 0)
        #expect(history?["connectionLogs"] == 0)
        #expect(history?["focusSessions"] == 0)
        #expect(history?["moodEntries"] == 0)
        #expect((history?["snapshots"]?.intValue ?? 0) >= 30)
        #expect(app["challenge"] == .null)
        #expect(app["xp"] == 25, "XP totals are kept")

        try device.withExhaustivity(.off) { try device.advance(seconds: 60 * 86_400) }
        let snapshots = try device.appState()["history"]?["snapshots"]?.intValue ?? 0
        #expect(snapshots >= 85 && snapshots <= 91, "snapshots older than 90 days are gone: \(snapshots)")
    }
}
