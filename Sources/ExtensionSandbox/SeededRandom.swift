/// The world's only source of randomness: SplitMix64, seeded.
///
/// Same seed, same sequence, on every platform. Random choices of simulated code (a message
/// from a list, a contact among equals) and the random scheduling strategy draw from one of these.
/// Its whole state is one number: saved with a device and given back to ``init(seed:)``, the
/// generator goes on where it stopped instead of repeating what it drew before.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// Where the sequence stands; `SeededRandom(seed: state)` continues it.
    public private(set) var state: UInt64

    public init(seed: UInt64) { self.state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
