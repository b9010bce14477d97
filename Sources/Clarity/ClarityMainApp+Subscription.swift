import SimulatediOS

/// Subscription (seed 000 task 9): StoreKit 2 products `com.clarity.focus.monthly` ($4.99) and
/// `com.clarity.focus.yearly` ($39.99), a 7-day free trial from install (the seed recommends it),
/// and the free tier's limits (task 9e). Expiry or refund returns to free.
extension ClarityMainApp {
    static let monthlyProductId = "com.clarity.focus.monthly"
    static let yearlyProductId = "com.clarity.focus.yearly"
    static let products = [
        StoreProduct(id: monthlyProductId, displayPrice: "$4.99"), StoreProduct(id: yearlyProductId, displayPrice: "$39.99"),
    ]
    static let trialDays = 7.0

    var trialEndsAt: Double { store.profile.installedAt + Self.trialDays * 86_400 }
    var inTrial: Bool { now < trialEndsAt }
    var isSubscribed: Bool { store.profile.subscriptionStatus != "none" }
    /// Paid features are available: a subscription or the trial.
    var isEntitled: Bool { isSubscribed || inTrial }

    /// `device.state.app.subscription`: `monthly`, `yearly`, `trial` or `none`.
    var subscriptionLabel: String { isSubscribed ? store.profile.subscriptionStatus : (inTrial ? "trial" : "none") }

    func requireEntitlement(_ feature: String) throws {
        guard isEntitled else {
            throw DeviceError.refused(reason: "subscriptionRequired", message: "\(feature) needs Clarity Pro")
        }
    }

    /// `updateSubscriptionStatus`: from `Transaction.currentEntitlements`; then the tier's
    /// consequences (shared keys, the WiFi gate) and the trial-end timer.
    func updateSubscriptionStatus() async throws {
        var status = "none"
        for transaction in try await platform.storeKitServices.currentEntitlements() {
            if transaction.productID == Self.monthlyProductId {
                status = "monthly"
            } else if transaction.productID == Self.yearlyProductId {
                status = "yearly"
            }
        }
        if status != store.profile.subscriptionStatus {
            store.profile.subscriptionStatus = status
            changed()
        }
        if inTrial {
            setTimer("trialEnd", after: trialEndsAt - now) { [self] in try await self.tierChanged() }
        }
        try await tierChanged()
    }

    private func tierChanged() async throws {
        try await syncSharedState()
        try await evaluateGate()
    }

    /// `restorePurchases`: `AppStore.sync()` then the status.
    func restorePurchases() async throws -> String {
        try await platform.storeKitServices.sync()
        try await updateSubscriptionStatus()
        return subscriptionLabel
    }
}
