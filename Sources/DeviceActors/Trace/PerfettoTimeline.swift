@_spi(Host) import SimulatediOS

/// Where each trace event sits on an exported trace's timeline, in microseconds.
///
/// An event is placed at its virtual time `t` (the timeline reads in virtual seconds), plus
/// `rank · step`, its rank among the events of that virtual instant times the instant's step:
/// many events share one instant (a threshold, the monitor's launch, its writes, the shield),
/// and this keeps them in trace order, each with room of its own. The step is 1 µs, halved
/// until the instant's events fit before the next instant; instants are at least 1 ms apart
/// and a trace holds at most 100 000 events, so it never drops below 2⁻⁷ µs, and every
/// timestamp is exact in a `Double` (a multiple of 2⁻⁹ µs) for any virtual time under 200 days,
/// and of a quarter µs under 70 years.
///
/// Within an event's step, a slice of its own spans the first half, flow arrows attach at the
/// first quarter, and a callback's or intent's slice ends three quarters into its last event's
/// step, so that slices nest and arrows land inside the slice they belong to.
struct PerfettoTimeline {
    private var timestamps: [Double] = []
    private var steps: [Double] = []

    /// `milliseconds`: the virtual time of each event, in trace order.
    init(milliseconds: [Int64]) {
        var start = 0
        while start < milliseconds.count {
            let instant = milliseconds[start]
            var end = start + 1
            while end < milliseconds.count, milliseconds[end] == instant { end += 1 }
            let count = end - start
            var step = 1.0
            if end < milliseconds.count, milliseconds[end] > instant {
                let room = Double(milliseconds[end] - instant) * 1000
                while Double(count) * step >= room { step /= 2 }
            }
            for rank in 0..<count {
                timestamps.append(Double(instant) * 1000 + Double(rank) * step)
                steps.append(step)
            }
            start = end
        }
    }

    /// Where event `index` begins.
    func timestamp(_ index: Int) -> Double { timestamps[index] }

    /// The room event `index` has before the next event of its instant.
    func step(_ index: Int) -> Double { steps[index] }

    /// Where flow arrows attach to event `index`'s slice.
    func anchor(_ index: Int) -> Double { timestamps[index] + steps[index] / 4 }

    /// The duration of a slice that stands for event `index` alone.
    func pointDuration(_ index: Int) -> Double { steps[index] / 2 }

    /// Where a slice whose last event is `index` ends.
    func end(after index: Int) -> Double { timestamps[index] + steps[index] * 3 / 4 }
}
