import DeviceActors
import Foundation

/// One hosted device and the serial queue that owns it: every request for the device runs on
/// that queue, so a device's world is only ever driven from one thread at a time, while
/// different devices run in parallel. After a request that changed durable state, the device is
/// saved before the reply goes out (nothing acknowledged is lost).
final class DeviceSlot: @unchecked Sendable {
    let device: SimulatedDevice
    private let queue: DispatchQueue
    private let store: DeviceStateStore
    private let log: Logger
    /// Wall mode: the timer that moves virtual time with real time. Touched only on `queue`.
    private var wallTimer: (any DispatchSourceTimer)?

    init(device: SimulatedDevice, store: DeviceStateStore, log: Logger) {
        self.device = device
        self.queue = DispatchQueue(label: "clarityd.device.\(device.name)")
        self.store = store
        self.log = log
    }

    /// Runs `body` on the device's queue, then saves the device if it changed.
    func run<T>(_ body: (SimulatedDevice) throws -> T) throws -> T {
        try queue.sync {
            let result = try body(device)
            try saveIfNeeded()
            return result
        }
    }

    func saveIfNeeded() throws {
        guard device.needsSave else { return }
        try store.save(device.snapshot())
    }

    /// Saves whatever changed, durable or not (on shutdown), and stops the wall clock.
    func saveAndStop() throws {
        try queue.sync {
            wallTimer?.cancel()
            wallTimer = nil
            guard device.hasUnsavedChanges || device.needsSave else { return }
            try store.save(device.snapshot())
        }
    }

    /// Wall mode: every second, advance the device's clock to the real time.
    func startWallClock() {
        queue.sync {
            guard device.clockMode == .wall, wallTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { [weak self] in self?.tickWallClock() }
            timer.resume()
            wallTimer = timer
        }
    }

    private func tickWallClock() {
        do {
            _ = try device.advanceWall(to: Date())
            try saveIfNeeded()
        } catch {
            log.error("device \(device.name): wall clock advance failed: \(error)")
        }
    }

    /// Stops the wall clock (the device is being removed or the daemon is stopping).
    func stop() {
        queue.sync {
            wallTimer?.cancel()
            wallTimer = nil
        }
    }
}
