import ExtensionSandbox

/// The device's HealthKit store (`HKHealthStore`): samples by local day, the app's read
/// authorization, queries told to fail, the app's observer queries and background delivery.
///
/// Delivery (docs/platform.md, "HealthKit"): an observer query lives in the main app's process, so
/// it is registered at every launch and gone at `app.terminate`. While the app is in memory its
/// observers fire at each sample of their kind. Background delivery (`enableBackgroundDelivery`,
/// `.hourly`) is the system's and outlives the app: a sample that reaches no observer makes the
/// system relaunch the app `healthBackgroundDeliverySeconds` after the first such sample (the
/// device's ``SpringBoard`` does), and the observers it registers at launch fire once.
@_spi(Host) public actor HealthAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let clock: VirtualClock
    private let calendar: DeviceCalendar
    private let trace: DeviceTrace
    /// Each local day's totals (`dayKey` → kind → sum).
    @_spi(Host) public private(set) var days: [String: [HealthQuantityType: Double]] = [:]
    /// The app asked for read access (`requestAuthorization`).
    @_spi(Host) public private(set) var asked = false
    /// The next statistics queries that throw (`health.fail`).
    @_spi(Host) public private(set) var failuresPending = 0
    /// Kinds the app enabled background delivery for (kept by the system, in the snapshot).
    @_spi(Host) public private(set) var backgroundDelivery: Set<HealthQuantityType> = []
    /// Kinds with a sample no observer has seen since (what a background relaunch delivers).
    @_spi(Host) public private(set) var undelivered: Set<HealthQuantityType> = []
    private var authorization = HealthAuthorization.granted
    private var observers: [(type: HealthQuantityType, handler: @Sendable () async throws -> Void)] = []

    @_spi(Host) public init(executor: WorldActorExecutor, clock: VirtualClock, calendar: DeviceCalendar, trace: DeviceTrace) {
        self.executor = executor
        self.clock = clock
        self.calendar = calendar
        self.trace = trace
    }

    @_spi(Host) public func configure(authorization: HealthAuthorization) {
        self.authorization = authorization
    }

    @_spi(Host) public func restore(
        days: [String: [HealthQuantityType: Double]], asked: Bool, failuresPending: Int,
        backgroundDelivery: Set<HealthQuantityType>, undelivered: Set<HealthQuantityType>
    ) {
        self.days = days
        self.asked = asked
        self.failuresPending = failuresPending
        self.backgroundDelivery = backgroundDelivery
        self.undelivered = undelivered
    }

    // MARK: - The outside world (`health.sample`, `health.fail`)

    /// Adds a sample to today's total and returns the observers to run now (none when the app is
    /// not in memory: the kind then waits for a background relaunch, if delivery is enabled).
    @_spi(Host) public func add(_ type: HealthQuantityType, value: Double, appInMemory: Bool) -> [@Sendable () async throws -> Void] {
        days[calendar.dayKey(clock.now), default: [:]][type, default: 0] += value
        trace.record(.healthSample(kind: type.rawValue, value: value), by: "health")
        guard appInMemory else {
            if backgroundDelivery.contains(type) { undelivered.insert(type) }
            return []
        }
        return observers.filter { $0.type == type }.map(\.handler)
    }

    @_spi(Host) public func failNext(_ count: Int) {
        failuresPending += count
        trace.record(.healthFail(count: count), by: "health")
    }

    // MARK: - The app's process

    /// `app.terminate`: observer queries die with the process.
    @_spi(Host) public func processEnded() {
        observers.removeAll()
    }

    /// A background relaunch delivers: the kinds waiting, cleared; their observers, to run once.
    @_spi(Host) public func takeUndelivered() -> [@Sendable () async throws -> Void] {
        let waiting = undelivered
        undelivered.removeAll()
        return observers.filter { waiting.contains($0.type) }.map(\.handler)
    }

    // MARK: - The SDK (``HealthStore``)

    func requestAuthorization() {
        asked = true
    }

    /// Today's sum (local day); 0 without read access (Apple hides a denial). Throws while
    /// failures are pending, one each.
    func sumToday(_ type: HealthQuantityType) throws(HealthQueryFailed) -> Double {
        if failuresPending > 0 {
            failuresPending -= 1
            throw HealthQueryFailed()
        }
        guard asked, authorization == .granted else { return 0 }
        return days[calendar.dayKey(clock.now)]?[type] ?? 0
    }

    func observe(_ type: HealthQuantityType, handler: @escaping @Sendable () async throws -> Void) {
        observers.append((type, handler))
    }

    func enableBackgroundDelivery(for type: HealthQuantityType) {
        backgroundDelivery.insert(type)
    }

    /// Today's totals as the outside world recorded them (what `device.state.app` may show).
    @_spi(Host) public func today() -> [HealthQuantityType: Double] {
        days[calendar.dayKey(clock.now)] ?? [:]
    }
}
