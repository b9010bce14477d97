/// A fault the simulated platform can inject where iOS has been seen to inflict it (issue 18,
/// "faults as choices"; each kind's source is in docs/platform.md, Faults).
public enum Fault: String, Sendable, CaseIterable, Comparable {
    /// An extension's process is killed at one of its platform calls, whatever its memory
    /// (jetsam under system-wide memory pressure, not only over its own budget): the callback is
    /// cut there, and what it wrote before stays written.
    case jetsam
    /// A DeviceActivity callback (`intervalDidStart`, `eventDidReachThreshold` …) is never
    /// delivered to the monitor extension.
    case callbackDropped
    /// A DeviceActivity callback reaches the monitor extension late: ``callbackDelaySeconds``
    /// of virtual time after the system fired it.
    case callbackDelayed
    /// The device reboots in the middle of an extension's callback, at one of its platform
    /// calls: the callback is cut there (what it wrote stays), then the device reboots.
    case reboot
    /// A request to a server never reaches it: the connection drops (a phone between cells,
    /// a captive Wi-Fi). The app gets `URLError.networkConnectionLost`; the server did nothing.
    case requestLost
    /// A request's answer never comes back: the server acted on it, and the app gets
    /// `URLError.timedOut` after ``requestTimeoutSeconds`` (URLSession's default timeout).
    case requestTimedOut
    /// The server fails the request (a deploy, an overloaded database): it answers 500 without
    /// acting on it.
    case serverError

    /// How late a ``callbackDelayed`` callback arrives: one threshold batch interval.
    public static let callbackDelaySeconds: Double = 60
    /// How long a ``requestTimedOut`` request waits before it fails: `URLRequest`'s default
    /// `timeoutInterval`, 60 s.
    public static let requestTimeoutSeconds: Double = 60

    public static func < (lhs: Fault, rhs: Fault) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One fault that fired in a run: its kind, and which of the run's sites of that kind it fired
/// at (0 for the first site met, 1 for the next …). Written `jetsam@3` in tokens.
public struct FaultSite: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let fault: Fault
    public let index: Int

    public init(_ fault: Fault, at index: Int) {
        self.fault = fault
        self.index = index
    }

    public var description: String { "\(fault.rawValue)@\(index)" }

    /// Reads `jetsam@3`; nil when it is not one.
    public init?(_ text: Substring) {
        let halves = text.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, let fault = Fault(rawValue: String(halves[0])), let index = Int(halves[1]), index >= 0
        else { return nil }
        self.init(fault, at: index)
    }

    public static func < (lhs: FaultSite, rhs: FaultSite) -> Bool {
        (lhs.fault, lhs.index) < (rhs.fault, rhs.index)
    }
}

/// Which faults fire in one run, as FoundationDB's BUGGIFY chooses them: seeded by the
/// schedule's seed (one seed for the schedule and its faults), or replayed from the sites a run
/// recorded, so a failure a fault caused replays like any other decision. Each site of an
/// enabled kind fires with probability 1 in ``oneIn``. World-confined, held by the
/// ``Scheduler``; a run with no plan (``none``) meets no fault.
public struct FaultPlan: Sendable {
    /// A site of an enabled kind fires once in this many, on average.
    public static let oneIn: UInt64 = 16

    private enum Mode: Sendable {
        case none
        case seeded(SeededRandom, Set<Fault>)
        case replaying(Set<FaultSite>)
    }

    private var mode: Mode
    private var sitesMet: [Fault: Int] = [:]
    /// The faults that fired so far, in the order they fired: what replays them.
    public private(set) var fired: [FaultSite] = []

    public static let none = FaultPlan(mode: .none)

    /// Faults of the `enabled` kinds fire at random, from `seed`.
    public static func seeded(_ seed: UInt64, enabled: Set<Fault>) -> FaultPlan {
        enabled.isEmpty ? .none : FaultPlan(mode: .seeded(SeededRandom(seed: seed ^ 0x4641_554C_5453_0000), enabled))
    }

    /// Exactly the faults at `sites` fire.
    public static func replaying(_ sites: [FaultSite]) -> FaultPlan {
        sites.isEmpty ? .none : FaultPlan(mode: .replaying(Set(sites)))
    }

    private init(mode: Mode) { self.mode = mode }

    /// A replay's sites the run never reached (a replay that ended early diverged), in order.
    public var unmetSites: [FaultSite] {
        guard case .replaying(let sites) = mode else { return [] }
        return sites.filter { $0.index >= sitesMet[$0.fault, default: 0] }.sorted()
    }

    /// How many sites of `fault` the run met.
    public func sitesMet(of fault: Fault) -> Int { sitesMet[fault, default: 0] }

    /// A site of `fault` is met: whether the fault fires here (recorded in ``fired`` if so).
    public mutating func fires(_ fault: Fault) -> Bool {
        let site = FaultSite(fault, at: sitesMet[fault, default: 0])
        let fires: Bool
        switch mode {
        case .none:
            return false
        case .seeded(var random, let enabled):
            guard enabled.contains(fault) else { return false }
            fires = random.next() % Self.oneIn == 0
            mode = .seeded(random, enabled)
        case .replaying(let sites):
            fires = sites.contains(site)
        }
        sitesMet[fault, default: 0] += 1
        if fires { fired.append(site) }
        return fires
    }
}
