/// The backend's own generator (docs/apps/thephone-backend.md, "Determinism": random draws come
/// from the backend's generator, seeded from its name): SplitMix64, whose whole state is one
/// number, saved with the backend. The same algorithm as the kernel's `SeededRandom`, repeated
/// because this target depends on Foundation only.
struct BackendRandom: Codable, Sendable, Equatable {
    private(set) var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// JavaScript's `Math.random()`: uniform in [0, 1), 53 bits.
    mutating func mathRandom() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// `Math.floor(Math.random() * count)`.
    mutating func index(below count: Int) -> Int {
        Int(mathRandom() * Double(count))
    }

    /// A seed from a backend's name: FNV-1a over its UTF-8 bytes.
    static func seed(name: String) -> UInt64 {
        name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
