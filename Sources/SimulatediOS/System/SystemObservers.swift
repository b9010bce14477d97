import ExtensionSandbox
import Foundation

/// `CXCallObserver`: tells the app about every transition of the device's calls. The handler
/// runs in the main app, as the delegate's queue would; register it at launch.
public struct CallObserver: Sendable {
    let observers: SystemObservers

    /// `setDelegate(_:queue:)` with `callObserver(_:callChanged:)` as `callChanged`.
    public func setDelegate(_ callChanged: @escaping @Sendable (CallState) async throws -> Void) {
        observers.register(call: callChanged)
    }
}

/// A network path as `NWPathMonitor` reports it. `ssid` is what `NEHotspotNetwork.fetchCurrent`
/// would give on that path (nil off WiFi): the simulation hands it over with the path.
public struct NetworkPath: Sendable, Hashable {
    public var ssid: String?
    /// `status == .satisfied`: the internet is reachable (`network.offline` makes it false).
    public var isSatisfied: Bool

    public init(ssid: String?, isSatisfied: Bool = true) {
        self.ssid = ssid
        self.isSatisfied = isSatisfied
    }

    /// `status == .satisfied` over WiFi.
    public var usesWiFi: Bool { ssid != nil }
}

/// `NWPathMonitor`: `pathUpdateHandler` runs in the main app whenever the device joins or
/// leaves a WiFi network, and when the internet goes or comes back (`network.offline` / `.online`).
public struct PathMonitor: Sendable {
    let observers: SystemObservers

    /// `start(queue:)` with `pathUpdateHandler` set.
    public func start(pathUpdateHandler: @escaping @Sendable (NetworkPath) async throws -> Void) {
        observers.register(path: pathUpdateHandler)
    }
}

/// The observers apps registered for system signals, read by the device when a signal comes.
/// Registration is synchronous (no actor hop), so registering changes no schedule.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
@_spi(Host) public final class SystemObservers: @unchecked Sendable {
    public typealias CallHandler = @Sendable (CallState) async throws -> Void
    public typealias PathHandler = @Sendable (NetworkPath) async throws -> Void

    private let lock = NSLock()
    private var callHandlers: [CallHandler] = []
    private var pathHandlers: [PathHandler] = []

    public init() {}

    /// Registering and reading observers, in a step's ``Footprint``: the order of registration
    /// is the order of notification.
    private static func observers(writes: Bool) -> Access { Access("SystemObservers", writes: writes) }

    func register(call handler: @escaping CallHandler) {
        Scheduler.note(Self.observers(writes: true))
        lock.withLock { callHandlers.append(handler) }
    }

    func register(path handler: @escaping PathHandler) {
        Scheduler.note(Self.observers(writes: true))
        lock.withLock { pathHandlers.append(handler) }
    }

    /// The main app's process ended (`app.terminate`): its observers are gone until it registers
    /// them again at its next launch.
    public func removeAll() {
        Scheduler.note(Self.observers(writes: true))
        lock.withLock {
            callHandlers.removeAll()
            pathHandlers.removeAll()
        }
    }

    /// The call observers, in the order they were registered.
    public var call: [CallHandler] {
        Scheduler.note(Self.observers(writes: false))
        return lock.withLock { callHandlers }
    }

    /// The path monitors, in the order they were started.
    public var path: [PathHandler] {
        Scheduler.note(Self.observers(writes: false))
        return lock.withLock { pathHandlers }
    }
}
