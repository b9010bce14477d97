import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// Rebuilds a device from what its files hold: from its creation (or its compaction snapshot),
/// then every journalled request through the same route that first served it, each at the
/// virtual time it ran. Since a world is deterministic, the device that comes back is the one
/// that was answered — at start, and after a change that could not be saved (rolled back).
struct DeviceReplay: Sendable {
    let log: Logger
    /// The backends devices reach; a replay never asks them (``DeviceConnection``).
    let servers: Servers
    /// The apps the daemon runs: a device names its app, the catalog makes it.
    let catalog: AppCatalog

    init(log: Logger, servers: Servers, catalog: AppCatalog) {
        self.log = log
        self.servers = servers
        self.catalog = catalog
    }

    /// The device `stored` describes. A replay that leaves the recorded path is logged with the
    /// line where it did, and why: the journal was written by another build (whose decisions and
    /// code may differ), or by this one and changed since (edited, or damaged); the device is as
    /// this build replays it. Throws when the base cannot be made (an unknown time zone, say).
    func rebuild(_ stored: DeviceStateStore.StoredDevice) throws -> SimulatedDevice {
        try replay(stored).device
    }

    /// As ``rebuild(_:)``, and whether the replay left the recorded path.
    func replay(_ stored: DeviceStateStore.StoredDevice) throws -> (device: SimulatedDevice, diverged: Bool) {
        let device: SimulatedDevice
        switch stored.base {
        case .created(let creation): device = try make(creation, replaying: true)
        case .snapshot(let snapshot): device = try SimulatedDevice(restoring: snapshot, catalog: catalog, servers: servers)
        case .replayed(let origin): device = try origin.stand(catalog: catalog)
        }
        let divergence = run(stored.entries, of: stored.name, on: device) { _ in }
        if let (index, method) = divergence {
            let why =
                stored.writtenBy == JournalBuild.current
                ? "this build wrote the journal, so it was changed since (edited by hand, or damaged)"
                : "the journal was written by another build of clarityd (\(stored.writtenBy ?? "one that did not say which"); this is \(JournalBuild.current))"
            log.warning(
                "device \(stored.name): replaying its journal took another path at line \(index + 2) (\(method)): \(why); the device is as this build replays it, and is snapshotted so that it stays so"
            )
        }
        return (device, divergence != nil)
    }

    /// Where a replayed request's network answers come from.
    enum NetworkAnswers: Sendable {
        /// The journal line's `network`: the backend is not asked (a restart's replay).
        case journalled
        /// The device's backend, asked anew (a recording's rehearsal on servers of its own,
        /// ``ScenarioRehearsal``).
        case asked
    }

    /// How one journalled request went in a replay.
    struct Replayed {
        let index: Int
        let entry: JournalEntry
        /// The error it threw; nil when it went through (a request that failed when first made
        /// fails again, and its failure is part of the history).
        let error: (any Error)?
        /// What the network answered it.
        let network: [DeviceConnection.Exchange]
    }

    /// Runs device `name`'s journalled `requests` on `device`, each at the virtual time it ran,
    /// through the route that first served it, and tells `ended` how each went. Returns the
    /// first request after which the device did not stand where the journal says (its index
    /// and method), if any.
    func run(
        _ requests: some Sequence<JournalEntry>, of name: String, on device: SimulatedDevice,
        answers: NetworkAnswers = .journalled, ended: (Replayed) -> Void
    ) -> (index: Int, method: String)? {
        var divergence: (index: Int, method: String)?
        for (index, entry) in requests.enumerated() {
            guard let method = Method(rawValue: entry.method), let replay = DeviceRoutes.table[method]?.replay else {
                log.warning("device \(name): journal line \(index + 2) is not a device method (\(entry.method)); skipped")
                continue
            }
            // Journalled, the network answers only as it did then: nothing while catching up,
            // then what the request got (the journal line's `network`).
            if answers == .journalled { device.connection?.replay([]) }
            var failure: (any Error)?
            do {
                try device.catchUp(toMilliseconds: entry.at)
                // What the network answered while catching up is not the request's.
                _ = device.connection?.takeExchanges()
                if answers == .journalled { device.connection?.replay(entry.network ?? []) }
                try replay(device, entry.params)
            } catch {
                failure = error
            }
            ended(Replayed(index: index, entry: entry, error: failure, network: device.connection?.takeExchanges() ?? []))
            if divergence == nil, JournalEntry.Checkpoint(device.mark) != entry.after {
                divergence = (index, entry.method)
            }
        }
        return divergence
    }

    /// A new device as `creation` resolved it, on `servers`; `replaying`, its launch gets the
    /// answers `creation` kept (``DeviceCreation/network``) instead of asking the backend.
    func make(_ creation: DeviceCreation, replaying: Bool) throws(DeviceError) -> SimulatedDevice {
        guard let start = DeviceCalendar.parseISO(creation.start) else {
            throw .invalidArgument(field: "start", reason: "not an ISO-8601 time: \(creation.start)")
        }
        guard let timeZone = TimeZone(identifier: creation.timezone) else {
            throw .invalidArgument(field: "timezone", reason: "unknown time zone \(creation.timezone)")
        }
        let apps = try (creation.apps ?? [creation.app]).map { name throws(DeviceError) in try catalog.registration(named: name) }
        return try SimulatedDevice(
            DeviceDescription(
                name: creation.name, apps: .registered(apps), start: start, timeZone: timeZone, timeZoneName: creation.timezone,
                seed: creation.seed, clock: creation.clock, config: creation.config),
            options: DeviceRunOptions(launch: replaying ? .replaying(creation.network ?? []) : .run), servers: servers)
    }
}
