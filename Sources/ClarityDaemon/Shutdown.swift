import Foundation

/// Stops the daemon once, whoever asks first (`daemon.shutdown`, SIGTERM, SIGINT, the end of a
/// private daemon's ``Lifeline``): tells the service manager, removes the socket so no new
/// client connects, stops the scenarios (each answers its caller: an exploration with what it
/// found, `stoppedBy: "shutdown"`), syncs and closes every device's journal — which answers
/// every request waiting for its sync — waits for the answers to reach their clients, removes
/// `--remove-at-exit`'s directory, and exits: 0, or 1 when a journal could not be synced or a
/// device did not stop within ``flushTimeout`` (say, stuck in a request): the process always ends.
final class Shutdown: Sendable {
    private let claim: SocketClaim
    private let devices: DeviceService
    private let scenarios: ScenarioWorkers
    private let connections: ConnectionRegistry
    private let notifier: ServiceNotifier
    /// `--remove-at-exit`: removed, with everything in it, just before the process exits.
    private let removeAtExit: String?
    private let log: Logger
    private let begun = Protected(false)

    /// How long shutdown waits for devices busy with a request, and for scenarios to stop.
    static let flushTimeout = 5.0
    /// How long it waits for answers already made to reach their clients.
    static let deliveryTimeout = 2.0

    init(
        claim: SocketClaim, devices: DeviceService, scenarios: ScenarioWorkers, connections: ConnectionRegistry,
        notifier: ServiceNotifier, removeAtExit: String?, log: Logger
    ) {
        self.removeAtExit = removeAtExit
        self.claim = claim
        self.devices = devices
        self.scenarios = scenarios
        self.connections = connections
        self.notifier = notifier
        self.log = log
    }

    /// ``run(reason:)`` on a thread of its own, returning at once: how an event loop's thread
    /// asks (`daemon.shutdown`, once its answer is delivered). Run there, the shutdown blocked
    /// that loop while it waited for the loops to deliver every answer: the loop could neither
    /// say it was quiet nor send a stopping exploration its report, so every `daemon.shutdown`
    /// waited the whole ``deliveryTimeout``, warned, and exited with those reports unsent.
    func start(reason: String) {
        let thread = Thread { [self] in run(reason: reason) }
        thread.name = "clarityd.shutdown"
        thread.start()
    }

    /// Returns at once when a shutdown is already under way (it ends in `exit`). Never on an
    /// event loop's thread (``start(reason:)``): it waits for the loops.
    func run(reason: String) {
        let first = begun.withLock { begun in
            defer { begun = true }
            return !begun
        }
        guard first else { return }
        log.info("shutting down (\(reason))")
        notifier.notify("STOPPING=1")
        claim.removeSocket()
        scenarios.cancelAll(.shutdown)
        if !scenarios.waitUntilIdle(timeout: Self.flushTimeout) {
            log.warning("some scenarios did not stop within \(Int(Self.flushTimeout)) s")
        }
        let saved = devices.flush(timeout: Self.flushTimeout)
        if !connections.waitUntilAnswered(timeout: Self.deliveryTimeout) {
            log.warning("some answers had not reached their clients after \(Int(Self.deliveryTimeout)) s")
        }
        log.info(saved ? "stopped" : "stopped, but not everything could be synced (see above)")
        if let removeAtExit { try? FileManager.default.removeItem(atPath: removeAtExit) }
        exit(saved ? 0 : 1)
    }
}
