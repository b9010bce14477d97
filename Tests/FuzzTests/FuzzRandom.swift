/// The fuzzer's random generator: xoshiro256** seeded through SplitMix64.
///
/// Written out here rather than taken from the standard library so that a seed means the same
/// requests on every platform and toolchain (`Int.random(in:using:)` may change its algorithm).
/// Nothing that generates requests may iterate a `Dictionary` or `Set`: their order changes from
/// one process to the next.
struct FuzzRandom {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    /// A generator for a part of the run (a worker, the coordinator) derived from the run's seed.
    init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) ^ 0x5851_F42D_4C95_7F2D)
    }

    mutating func next() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }

    /// 0 ..< `count` (`count` > 0).
    mutating func below(_ count: Int) -> Int {
        precondition(count > 0)
        return Int(next() % UInt64(count))
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// One of `choices`, each as likely as its weight.
    mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
        let total = choices.reduce(0) { $0 + $1.0 }
        var roll = below(total)
        for (weight, choice) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[choices.count - 1].1
    }

    /// A copy of `elements` in a random order.
    mutating func shuffled<T>(_ elements: [T]) -> [T] {
        var result = elements
        guard result.count > 1 else { return result }
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(index, below(index + 1))
        }
        return result
    }
}
