/// A point on a world's virtual clock: milliseconds since the world's epoch.
///
/// The only notion of time inside a world. Integer milliseconds keep arithmetic exact, so
/// two runs of the same scenario compute the same instants bit for bit.
public struct VirtualInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static let epoch = VirtualInstant(milliseconds: 0)

    public init(seconds: Double) { self.milliseconds = Int64((seconds * 1000).rounded()) }

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

    public static func seconds(_ value: Double) -> VirtualDuration {
        VirtualDuration(milliseconds: Int64((value * 1000).rounded()))
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
