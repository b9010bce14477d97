import ExtensionSandbox

/// A stretch of today's usage: `app` frontmost, unshielded and the device unlocked from `start`
/// to `end`. DeviceActivity keeps today's spans (a new day lets go of them, as of the day
/// totals) so that usage can be counted from any instant of the day: the `thresholdFiresOnStart`
/// quirk counts the usage of the interval so far, not the whole day's (docs/platform.md).
@_spi(Host) public struct UsageSpan: Sendable, Equatable, Codable {
    public let app: String
    public let start: VirtualInstant
    public var end: VirtualInstant

    /// The milliseconds of this span between `from` and `to`.
    func milliseconds(from: VirtualInstant, to: VirtualInstant) -> Int64 {
        max(0, min(end, to).milliseconds - max(start, from).milliseconds)
    }
}
