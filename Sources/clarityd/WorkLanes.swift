import Dispatch

/// Where requests that may wait for a device run, off the event loops: one serial lane per
/// device name, on the shared Dispatch pool.
///
/// A device's requests are run one after another anyway (``DeviceSlot`` runs them on the
/// device's queue), so queueing them per device means one thread at a time works for a device
/// — instead of one blocked thread per waiting client, which under 50 clients grew the pool to
/// ~190 threads — while different devices still run in parallel. Lanes are made on first use;
/// once there are more than ``keptIdle``, idle ones are dropped, so names that clients make up
/// cost nothing lasting. Work for no single device (a batch, `device.list`) runs on the pool
/// directly.
final class WorkLanes: Sendable {
    private final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        /// Work queued or running on the lane; read and written only under the lanes' lock.
        var pending = 0

        init(name: String) {
            queue = DispatchQueue(label: "clarityd.lane.\(name.prefix(64))")
        }
    }

    /// Idle lanes beyond this many are dropped.
    static let keptIdle = 64

    private let lanes = Protected<[String: Lane]>([:])

    /// Runs `work` on the lane of device `name`, or anywhere on the pool when `name` is nil.
    func run(on name: String?, _ work: @escaping @Sendable () -> Void) {
        guard let name else {
            DispatchQueue.global().async(execute: work)
            return
        }
        let lane = lanes.withLock { lanes in
            let lane = lanes[name] ?? Lane(name: name)
            lanes[name] = lane
            lane.pending += 1
            return lane
        }
        lane.queue.async { [lanes] in
            work()
            lanes.withLock { lanes in
                lane.pending -= 1
                if lane.pending == 0, lanes.count > Self.keptIdle, lanes[name] === lane {
                    lanes[name] = nil
                }
            }
        }
    }
}
