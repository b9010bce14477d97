import Dispatch
import ExtensionSandbox

/// The one serial path of each device: a queue per device name, on which every request for the
/// device runs, one after another, while different devices run in parallel.
///
/// A connection queues a request for device `x` on lane `x` (``run(on:_:)``), and device `x`'s
/// ``DeviceSlot`` runs its work on that same queue (it holds the lane: ``hold(_:)``), so a
/// request waits in one place only — once queued it never waits again for the device. Work
/// that is not on the lane already (a batch, `device.list`, shutdown) joins it with
/// ``Lane/run(_:)``, which waits its turn; work already on it just runs.
///
/// Queueing per device means one thread at a time works for a device — instead of one blocked
/// thread per waiting client, which under 50 clients grew the pool to ~190 threads. Lanes are
/// made on first use; a lane no device holds is dropped once idle, when more than
/// ``keptIdle`` are kept, so names that clients make up cost nothing lasting. Work for no
/// single device runs on its connection's own queue (``Connection``).
final class DeviceLanes: Sendable {
    /// One device name's serial queue.
    // unchecked: `pending` and `holders` are read and written only under the lanes' lock.
    final class Lane: @unchecked Sendable {
        let name: String
        private let queue: DispatchQueue
        /// Work queued or running, and the devices holding the lane (two for a moment, when a
        /// device is created while one of its name is being removed); read and written only
        /// under the lanes' lock.
        fileprivate var pending = 0
        fileprivate var holders = 0

        private static let key = DispatchSpecificKey<ObjectIdentifier>()

        fileprivate init(name: String) {
            self.name = name
            queue = DispatchQueue(label: "clarityd.lane.\(name.prefix(64))")
            queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
        }

        /// Whether the calling code runs on this lane.
        var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

        /// Fails the process when the calling code is not on this lane: for state that only the
        /// lane's work may touch (a device's; debug builds only, ``Confinement``).
        func checkCurrent(file: StaticString = #fileID, line: UInt = #line) {
            Confinement.check(isCurrent, "device \(name)'s state touched off its lane", file: file, line: line)
        }

        /// Runs `body` on the lane and returns its result: at once when called on the lane,
        /// else after the work queued before it.
        func run<T>(_ body: () throws -> T) rethrows -> T {
            isCurrent ? try body() : try queue.sync(execute: body)
        }

        /// A timer that fires on the lane (a wall-clock device's ticks).
        func makeTimer() -> any DispatchSourceTimer { DispatchSource.makeTimerSource(queue: queue) }

        /// Queues `work` behind what is on the lane, without waiting for it.
        func later(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

        /// Holds the lane shut: what is queued waits, without a thread, until ``resume()`` (a
        /// device being restored in the background). Never while on the lane.
        func suspend() { queue.suspend() }

        func resume() { queue.resume() }
    }

    /// Idle lanes no device holds, beyond this many, are dropped.
    static let keptIdle = 64

    private let lanes = Protected<[String: Lane]>([:])

    /// Runs `work` on the lane of device `name`.
    func run(on name: String, _ work: @escaping @Sendable () -> Void) {
        let lane = lanes.withLock { lanes in
            let lane = Self.lane(name, in: &lanes)
            lane.pending += 1
            return lane
        }
        lane.later { [self] in
            work()
            lanes.withLock { lanes in
                lane.pending -= 1
                dropIfIdle(lane, in: &lanes)
            }
        }
    }

    /// The lane of device `name`, kept while a device holds it (until ``release(_:)``).
    func hold(_ name: String) -> Lane {
        lanes.withLock { lanes in
            let lane = Self.lane(name, in: &lanes)
            lane.holders += 1
            return lane
        }
    }

    /// The device that held `lane` is gone; the lane is dropped once idle, as any other.
    func release(_ lane: Lane) {
        lanes.withLock { lanes in
            lane.holders -= 1
            dropIfIdle(lane, in: &lanes)
        }
    }

    /// Device `name`'s lane, made on first use.
    private static func lane(_ name: String, in lanes: inout [String: Lane]) -> Lane {
        if let lane = lanes[name] { return lane }
        let lane = Lane(name: name)
        lanes[name] = lane
        return lane
    }

    private func dropIfIdle(_ lane: Lane, in lanes: inout [String: Lane]) {
        if lane.pending == 0, lane.holders == 0, lanes.count > Self.keptIdle, lanes[lane.name] === lane {
            lanes[lane.name] = nil
        }
    }
}
