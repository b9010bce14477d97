import ExtensionSandbox

/// The callbacks DeviceActivity holds for an app's monitor: those due while the device was not
/// in use (delivered at its next use), and thresholds held by `batchedThresholds` until
/// `batchFlushAt`. A snapshot keeps them: a device rebuilt from one (a compaction, a restart)
/// delivers them when the device it was taken from would have — a compaction while the phone
/// was locked across midnight once lost the day's `intervalDidEnd` and `intervalDidStart`.
@_spi(Host) public struct MonitorCallbackQueue: Sendable, Equatable, Codable {
    @_spi(Host) public var pending: [MonitorCallback] = []
    @_spi(Host) public var batched: [MonitorCallback] = []
    @_spi(Host) public var batchFlushAt: VirtualInstant?

    @_spi(Host) public init(pending: [MonitorCallback] = [], batched: [MonitorCallback] = [], batchFlushAt: VirtualInstant? = nil) {
        self.pending = pending
        self.batched = batched
        self.batchFlushAt = batchFlushAt
    }

    /// Nothing held: a snapshot leaves the queue out.
    @_spi(Host) public var isEmpty: Bool { pending.isEmpty && batched.isEmpty && batchFlushAt == nil }
}
