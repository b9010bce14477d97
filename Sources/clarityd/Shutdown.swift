import Foundation

/// Stops the daemon once, whoever asks first (`daemon.shutdown`, SIGTERM, SIGINT): tells the
/// service manager, removes the socket so no new client connects, syncs every device's journal,
/// and exits — 0, or 1 when a journal could not be synced or a device did not stop within
/// ``flushTimeout`` (say, stuck in a request): the process always ends. Requests still running
/// are cut off by the exit; none of them was answered.
final class Shutdown: Sendable {
    private let claim: SocketClaim
    private let devices: DeviceService
    private let notifier: ServiceNotifier
    private let log: Logger
    private let begun = Protected(false)

    /// How long shutdown waits for devices busy with a request.
    static let flushTimeout = 5.0

    init(claim: SocketClaim, devices: DeviceService, notifier: ServiceNotifier, log: Logger) {
        self.claim = claim
        self.devices = devices
        self.notifier = notifier
        self.log = log
    }

    /// Returns at once when a shutdown is already under way (it ends in `exit`).
    func run(reason: String) {
        let first = begun.withLock { begun in
            defer { begun = true }
            return !begun
        }
        guard first else { return }
        log.info("shutting down (\(reason))")
        notifier.notify("STOPPING=1")
        claim.removeSocket()
        let saved = devices.flush(timeout: Self.flushTimeout)
        log.info(saved ? "stopped" : "stopped, but not everything could be synced (see above)")
        exit(saved ? 0 : 1)
    }
}
