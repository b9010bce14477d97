import Foundation

/// Stops the daemon once, whoever asks first (`daemon.shutdown`, SIGTERM, SIGINT): tells the
/// service manager, removes the socket so no new client connects, flushes device state, exits 0.
/// Requests still running on other connections are cut off by the exit.
final class Shutdown: Sendable {
    private let claim: SocketClaim
    private let devices: DeviceService
    private let notifier: ServiceNotifier
    private let log: Logger
    private let begun = Protected(false)

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
        devices.flush()
        log.info("stopped")
        exit(0)
    }
}
