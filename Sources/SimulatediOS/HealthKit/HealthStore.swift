import ExtensionSandbox

/// `HKHealthStore` for simulated code (docs/sdk.md, porting table; docs/platform.md#healthkit).
/// Every call is a platform call: a scheduling point, only from a running process.
public struct HealthStore: Sendable {
    @_spi(Host) public let agent: HealthAgent

    /// `requestAuthorization(toShare:read:)`: the answer is the device's `healthAuthorization`
    /// (`granted` by default), which the app cannot see (Apple hides read denials).
    public func requestAuthorization(read types: Set<HealthQuantityType>) async throws {
        try CallbackContext.platformCall(VisibleOperation("request", "HealthKit", "authorization"))
        await agent.requestAuthorization()
    }

    /// An `HKStatisticsQuery` with `.cumulativeSum` over today (from local midnight, the device's
    /// time zone): the sum, 0 with no data or no read access. Throws ``HealthQueryFailed`` while
    /// `health.fail` failures are pending.
    public func sumToday(_ type: HealthQuantityType) async throws -> Double {
        try CallbackContext.platformCall(VisibleOperation("query", "HealthKit", type.rawValue))
        return try await agent.sumToday(type)
    }

    /// `execute(HKObserverQuery(sampleType:predicate:updateHandler:))`: `updateHandler` runs in
    /// the main app at each new sample of `type` while the app is in memory (and once after a
    /// background relaunch). The query lives in the process: register it at every launch.
    public func executeObserverQuery(_ type: HealthQuantityType, updateHandler: @escaping @Sendable () async throws -> Void)
        async throws
    {
        try CallbackContext.platformCall(VisibleOperation("observe", "HealthKit", type.rawValue))
        await agent.observe(type, handler: updateHandler)
    }

    /// Today's totals as recorded on the device, for a dashboard: the simulator's view (no iOS
    /// call answers this way): not a query, so it neither needs read access nor meets `health.fail`.
    public func recordedToday() async -> [HealthQuantityType: Double] {
        await agent.today()
    }

    /// `enableBackgroundDelivery(for:frequency: .hourly)`: with the app out of memory, a sample
    /// relaunches it after the device's `healthBackgroundDeliverySeconds` (3600).
    public func enableBackgroundDelivery(for type: HealthQuantityType) async throws {
        try CallbackContext.platformCall(VisibleOperation("enableBackgroundDelivery", "HealthKit", type.rawValue))
        await agent.enableBackgroundDelivery(for: type)
    }
}
