@_spi(Host) import SimulatediOS

/// A device's trace as a Chrome trace-event JSON object, for Perfetto (ui.perfetto.dev) and
/// `chrome://tracing`: `{"traceEvents":[…],"displayTimeUnit":"ms","otherData":{…}}`.
///
/// A pure function of the traced effects (as `trace.get` gives them), so anything that holds a
/// trace — the daemon's `trace.export`, a scenario's failing schedule — exports it the same way:
///
/// - tracks: a process per actor and per extension launch (``PerfettoProcesses``), named and
///   sorted with `M` events;
/// - slices (`X`): extension callbacks and intents, holding the events they made
///   (``TraceSpans``);
/// - every other event an instant (`i`) on its actor's track — or a short slice when it lies in
///   a callback or intent, or an arrow ends on it, since arrows bind to slices only;
/// - flow arrows (`s` → `f`, `bp:"e"`) from cause to effect (``TraceCauses``);
/// - timestamps: virtual time in µs, spread within an instant (``PerfettoTimeline``).
///
/// Every event's `args` is its trace effect, fields and all. docs/tracing.md has the details.
public struct PerfettoTrace: Sendable, Encodable {
    public let traceEvents: [PerfettoEvent]
    public let displayTimeUnit = "ms"
    public let otherData: Metadata

    /// What the trace came from, shown by Perfetto as the trace's metadata.
    public struct Metadata: Sendable, Encodable {
        /// The device's name, when known.
        public let device: String?
        public let app: String
        /// The wall-clock time (ISO 8601, UTC) of virtual time 0, where the timeline starts.
        public let epoch: String?
        /// How many trace events were exported, and the first and last `seq` among them.
        public let events: Int
        public let firstSeq: Int?
        public let lastSeq: Int?
    }

    /// A switch of a scenario's schedule to mark: it came after trace event `afterSequence`.
    public struct ScheduleSwitch: Sendable {
        public let afterSequence: Int
        public let label: String
    }

    /// Exports `effects` (in trace order) of a device running `app` (`dailylimit`); `device` names
    /// it in the metadata; `switches` (a scenario's schedule) are marked where they happened.
    public init(effects: [TracedEffect], app: String, device: String? = nil, switches: [ScheduleSwitch] = []) {
        let mainAppActor = "\(app).app"
        let timeline = PerfettoTimeline(milliseconds: effects.map(\.entry.time.milliseconds))
        let processes = PerfettoProcesses(effects: effects, mainAppActor: mainAppActor)
        let spans = TraceSpans(effects: effects, pids: processes.pids, mainAppActor: mainAppActor)
        let causes = TraceCauses(effects: effects, spans: spans)

        var events: [PerfettoEvent] = []
        for process in processes.processes {
            events.append(.metadata("process_name", process: process.pid, thread: process.pid, .name(process.name)))
            events.append(
                .metadata("process_sort_index", process: process.pid, thread: process.pid, .sortIndex(process.sortIndex)))
            events.append(.metadata("thread_name", process: process.pid, thread: process.pid, .name(process.threadName)))
        }
        var linked = Set<Int>()
        for link in causes.links {
            linked.insert(link.cause)
            linked.insert(link.effect)
        }
        let linksByCause = Dictionary(grouping: causes.links.enumerated(), by: \.element.cause)
        let linksByEffect = Dictionary(grouping: causes.links.enumerated(), by: \.element.effect)
        for (index, effect) in effects.enumerated() {
            let pid = processes.pids[index]
            let start = timeline.timestamp(index)
            let duration: Double?
            if let span = spans.spanStarted[index] {
                duration = timeline.end(after: spans.spans[span].last) - start
            } else if spans.holder[index] != nil || linked.contains(index) {
                duration = timeline.pointDuration(index)
            } else {
                duration = nil
            }
            events.append(.effect(effect, name: effect.entry.payload.traceLabel, at: start, duration: duration, process: pid))
            for (number, link) in linksByEffect[index] ?? [] {
                events.append(.flow(.flowEnd, id: number + 1, rule: link.rule.rawValue, at: timeline.anchor(index), process: pid))
            }
            for (number, link) in linksByCause[index] ?? [] {
                events.append(.flow(.flowStart, id: number + 1, rule: link.rule.rawValue, at: timeline.anchor(index), process: pid))
            }
        }
        for mark in switches {
            guard let index = effects.firstIndex(where: { $0.entry.sequence > mark.afterSequence }) else { continue }
            events.append(.scheduleSwitch(mark.label, at: timeline.anchor(index), process: processes.pids[index]))
        }
        traceEvents = events
        otherData = Metadata(
            device: device, app: app, epoch: effects.first.map { DeviceCalendar.isoString($0.calendar.start) },
            events: effects.count, firstSeq: effects.first?.entry.sequence, lastSeq: effects.last?.entry.sequence)
    }
}

extension SimulatedDevice {
    /// The device's trace after sequence `since` (the oldest `limit` events, or the newest
    /// `last`), exported for Perfetto.
    public func perfettoTrace(since: Int? = nil, limit: Int? = nil, last: Int? = nil) -> PerfettoTrace {
        PerfettoTrace(effects: traceEntries(since: since, limit: limit, last: last), app: appName, device: name)
    }
}
