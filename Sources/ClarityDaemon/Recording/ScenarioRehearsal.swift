import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// The recorded device as its scenario's run makes it again: a fresh device on servers of its
/// own — a scenario's backend is private to its run (docs/scenarios.md, Recording a session) —
/// driven by the requests the device received, its backend asked anew each time.
///
/// It tells how each request ends (the journal keeps requests, not their answers), and whether
/// the scenario gives the device again. A device whose app brings a server gets answers from its instance:
/// when that backend is shared — another device made the group this one joins, `backend.sync`
/// stored another user's events, another device moved the backend's clock — a scenario's fresh
/// backend answers otherwise, and the replay fails (`noSuchGroup`) or ends elsewhere. For such
/// a device the rehearsal is kept while it is recorded, and follows every request it receives.
final class ScenarioRehearsal {
    /// Where the rehearsal parted from the device.
    enum Parting: Equatable {
        /// The backend answered request `index` otherwise than the device's backend did
        /// (`nil`: the launch, at `device.create`).
        case answers(index: Int?)
        /// After request `index` the rehearsal stood elsewhere than the device did.
        case path(index: Int)
    }

    let device: SimulatedDevice
    private let replay: DeviceReplay
    /// Whether its launch got other answers than the device's did.
    let launchParted: Bool

    /// A fresh device as `creation` made it, launched on servers of its own.
    init(_ creation: DeviceCreation, catalog: AppCatalog, log: Logger) throws(RPCError) {
        replay = DeviceReplay(log: log, servers: Servers(), catalog: catalog)
        do {
            device = try replay.make(creation, replaying: false)
        } catch {
            throw RPCError(error)
        }
        launchParted = (device.connection?.takeExchanges() ?? []) != (creation.network ?? [])
        for server in device.connection?.servers ?? [] { _ = server.takeOperations() }
    }

    /// Whether the device talks to a backend, whose answers the rehearsal must keep checking.
    var asksABackend: Bool { device.connection != nil }

    /// Runs `requests` (journal lines, numbered from 0) on the rehearsal, the backend asked anew;
    /// `ended` tells how each went. Returns where the rehearsal first parted from the device.
    func run(_ requests: some Sequence<JournalEntry>, ended: (DeviceReplay.Replayed) -> Void = { _ in }) -> Parting? {
        var answered: Int?
        let divergence = replay.run(requests, of: device.name, on: device, answers: .asked) { replayed in
            if answered == nil, replayed.network != replayed.entry.network ?? [] { answered = replayed.index }
            // The private backend's changes are never saved: let go of them.
            for server in device.connection?.servers ?? [] { _ = server.takeOperations() }
            ended(replayed)
        }
        if let answered, answered <= divergence?.index ?? .max { return .answers(index: answered) }
        return divergence.map { .path(index: $0.index) }
    }
}
