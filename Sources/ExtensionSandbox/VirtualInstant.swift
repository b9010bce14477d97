/// A point on a world's virtual clock: milliseconds since the world's epoch.
///
/// The only notion of time inside a world. Integer milliseconds keep arithmetic exact, so
/// two runs of the same scenario compute the same instants bit for bit.
public struct VirtualInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static let epoch = VirtualInstant(milliseconds: 0)

    /// Held within ±``VirtualDuration/farthest`` as ``VirtualDuration/seconds(_:)`` is.
    public init(seconds: Double) { self.milliseconds = VirtualDuration.seconds(seconds).milliseconds }

    /// Seconds since the epoch, as reported on the wire in `"t"`.
    public var seconds: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static func + (lhs: VirtualInstant, rhs: VirtualDuration) -> VirtualInstant {
        VirtualInstant(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public static func - (lhs: VirtualInstant, rhs: VirtualDuration) -> VirtualInstant {
        VirtualInstant(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    public static func - (lhs: VirtualInstant, rhs: VirtualInstant) -> VirtualDuration {
        VirtualDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    public var description: String { "t=\(seconds)" }
}

/// A span of virtual time in milliseconds.
public struct VirtualDuration: Sendable, Hashable, Comparable, Codable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The longest span of virtual time, 2^62 ms (146 million years): no world's clock gets
    /// near it (a device's stops at 2^53 ms), and an instant of the clock plus it still fits.
    public static let farthest = VirtualDuration(milliseconds: 1 << 62)

    /// `value` seconds, held within ±``farthest`` (not a number: ``farthest``). A timer an app
    /// sets for that long never fires, as an iOS timer set past `Date.distantFuture` does not;
    /// a damaged snapshot's install time once made Clarity's trial timer trap here
    /// (fuzz-snapshot, docs/fuzzing.md).
    public static func seconds(_ value: Double) -> VirtualDuration {
        let milliseconds = (value * 1000).rounded()
        guard milliseconds.magnitude < Double(farthest.milliseconds) else {
            return VirtualDuration(milliseconds: milliseconds < 0 ? -farthest.milliseconds : farthest.milliseconds)
        }
        return VirtualDuration(milliseconds: Int64(milliseconds))
    }

    public static func minutes(_ value: Double) -> VirtualDuration { .seconds(value * 60) }

    public static let zero = VirtualDuration(milliseconds: 0)

    public var seconds: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static func + (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public static func - (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }
}
