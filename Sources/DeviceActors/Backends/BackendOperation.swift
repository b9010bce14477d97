@_spi(Host) import SimulatediOS
import ThePhoneBackend

/// A change to a backend, as its journal keeps it (`<state dir>/backends/<name>.<G>.journal`,
/// one per line): applied again in order to the snapshot the journal continues, it gives the
/// backend back exactly.
public enum BackendOperation: Codable, Sendable, Equatable {
    /// The backend was made, its clock at `now`: the first line of its first journal (generation
    /// 0), from which the backend can be rebuilt without any snapshot.
    case created(now: Int64)
    /// The backend's clock moved to `now` and nothing else changed: its devices' ticks that ran
    /// no job to any effect, written once, before the next operation or at the next save, so
    /// that a restart finds the clock where it was and the next operation served at the time it
    /// was served.
    case clock(now: Int64)
    /// A device's request, with what the routes need to know of the device, and the status it
    /// was answered with: applied again, it must get the same (journals of earlier builds have
    /// none).
    case serve(device: String, timezone: String, platform: String, request: NetworkRequest, now: Int64, status: Int?)
    /// A device's tick that ran a job to some effect or took pushes.
    case tick(device: String, now: Int64)
    /// A raw `backend.sync`.
    case sync(user: String, events: [SyncRequest.Event], lastSync: Int64)

    /// The time the operation moves the backend's clock to (a raw sync runs at the clock).
    public var now: Int64? {
        switch self {
        case .created(let now), .clock(let now), .serve(_, _, _, _, let now, _), .tick(_, let now): now
        case .sync: nil
        }
    }
}
