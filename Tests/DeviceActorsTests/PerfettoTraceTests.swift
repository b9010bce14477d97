import ControlProtocol
import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// An exported trace read the way Perfetto reads it: tracks by name, slices by name, and each
/// flow arrow bound to the innermost slice of its track that encloses its point.
private struct ExportedTrace {
    let trace: PerfettoTrace

    var events: [PerfettoEvent] { trace.traceEvents }

    /// Every process name, in pid order.
    var processNames: [String] {
        events.filter { $0.phase == .metadata && $0.name == "process_name" }.compactMap {
            if case .name(let name)? = $0.arguments { return name }
            return nil
        }
    }

    func pid(_ process: String) -> Int? {
        events.first { event in
            guard event.phase == .metadata, event.name == "process_name", case .name(let name)? = event.arguments else {
                return false
            }
            return name == process
        }?.processID
    }

    func sortIndex(_ process: String) -> Int? {
        events.compactMap { event -> Int? in
            guard event.phase == .metadata, event.name == "process_sort_index", event.processID == pid(process),
                case .sortIndex(let index)? = event.arguments
            else { return nil }
            return index
        }.first
    }

    func slices(_ name: String, on process: String) -> [PerfettoEvent] {
        events.filter { $0.phase == .complete && $0.name == name && $0.processID == pid(process) }
    }

    func instants(on process: String) -> [PerfettoEvent] {
        events.filter { $0.phase == .instant && $0.processID == pid(process) }
    }

    /// The innermost slice on `event`'s track that encloses its point, as Perfetto binds a flow end.
    func enclosingSlice(_ event: PerfettoEvent) -> PerfettoEvent? {
        events.filter { slice in
            slice.phase == .complete && slice.processID == event.processID && slice.timestamp <= event.timestamp
                && event.timestamp < slice.timestamp + (slice.duration ?? 0)
        }.min { ($0.duration ?? 0) < ($1.duration ?? 0) }
    }

    /// Every arrow as (rule, cause slice, effect slice).
    var arrows: [(rule: String, from: PerfettoEvent, to: PerfettoEvent)] {
        let starts = Dictionary(
            events.filter { $0.phase == .flowStart }.map { ($0.flowID ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
        return events.filter { $0.phase == .flowEnd }.compactMap { end in
            guard let start = starts[end.flowID ?? 0], let from = enclosingSlice(start), let to = enclosingSlice(end) else {
                return nil
            }
            return (end.name, from, to)
        }
    }

    func arrows(_ rule: String) -> [(from: String, to: String)] {
        arrows.filter { $0.rule == rule }.map { ($0.from.name, $0.to.name) }
    }

    func contains(_ outer: PerfettoEvent, _ inner: PerfettoEvent) -> Bool {
        outer.processID == inner.processID && outer.timestamp <= inner.timestamp
            && inner.timestamp + (inner.duration ?? 0) <= outer.timestamp + (outer.duration ?? 0)
    }
}

@Suite struct PerfettoTraceTests {
    /// Clarity with Instagram selected and open, 10 minutes on: the monitor's launches at 0, 300
    /// and 600 s, its third callback shields Instagram and the shield shows.
    private func frictionRun() throws -> SimulatedDevice {
        let device = try makeClarityDevice()
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 600)
        return device
    }

    @Test func eachActorAndEachExtensionLaunchIsATrackSortedAppFirst() throws {
        let trace = ExportedTrace(trace: try frictionRun().perfettoTrace())
        #expect(
            trace.processNames == [
                "clarity.app", "deviceActivity", "clarity.monitor #1", "springBoard", "clock", "clarity.monitor #2",
                "clarity.monitor #3", "clarity.shieldConfiguration #1",
            ])
        #expect(trace.sortIndex("clarity.app") == 0)
        #expect(trace.sortIndex("springBoard") == 1)
        #expect(trace.sortIndex("deviceActivity") == 2)
        #expect(trace.sortIndex("clock") == 3)
        let launches = ["clarity.monitor #1", "clarity.monitor #2", "clarity.monitor #3", "clarity.shieldConfiguration #1"]
        let order = launches.compactMap(trace.sortIndex)
        #expect(order.count == 4 && order == order.sorted() && order[0] > 5, "launches after the system, in launch order")
        let threadNames = trace.events.filter { $0.name == "thread_name" }.map(\.processID)
        #expect(threadNames.count == trace.processNames.count)
    }

    @Test func callbacksAndIntentsAreSlicesHoldingWhatTheyDid() throws {
        let trace = ExportedTrace(trace: try frictionRun().perfettoTrace())
        let intent = try #require(trace.slices("intent selectApps", on: "clarity.app").first)
        let startMonitoring = try #require(trace.slices("startMonitoring clarity_friction", on: "clarity.app").first)
        #expect(trace.contains(intent, startMonitoring))

        let callback = try #require(trace.slices("eventDidReachThreshold", on: "clarity.monitor #3").first)
        let write = try #require(trace.slices("write frictionLevel", on: "clarity.monitor #3").first)
        let apply = try #require(trace.slices("shield.apply friction", on: "clarity.monitor #3").first)
        #expect(trace.contains(callback, write) && trace.contains(callback, apply))
        #expect(write.timestamp < apply.timestamp)
        guard case .effect(let effect)? = apply.arguments else {
            Issue.record("shield.apply carries no effect")
            return
        }
        #expect(effect.entry.payload == .shieldApply(store: "friction", applications: [instagram], categories: .none))
        #expect(trace.instants(on: "clarity.monitor #3").map(\.name) == ["launch", "terminate"])
        #expect(trace.instants(on: "clock").map(\.name) == ["advance 600 s"])
        #expect(trace.slices("configuration(shielding:)", on: "clarity.shieldConfiguration #1").count == 1)
    }

    @Test func arrowsLeadFromStartMonitoringToTheShield() throws {
        let trace = ExportedTrace(trace: try frictionRun().perfettoTrace())
        #expect(
            trace.arrows("startMonitoring").map(\.to) == [
                "intervalStart clarity_friction", "threshold friction_layer_1", "threshold friction_layer_2",
            ])
        #expect(trace.arrows("startMonitoring").allSatisfy { $0.from == "startMonitoring clarity_friction" })
        #expect(
            trace.arrows("delivery").map { "\($0.from) → \($0.to)" } == [
                "intervalStart clarity_friction → intervalDidStart",
                "threshold friction_layer_1 → eventDidReachThreshold",
                "threshold friction_layer_2 → eventDidReachThreshold",
            ])
        let layerTwo = trace.arrows.filter { $0.rule == "delivery" }.last
        #expect(layerTwo.map { trace.pid("clarity.monitor #3") == $0.to.processID } == true)
        let changes = trace.arrows.filter { $0.rule == "change" && $0.from.processID == trace.pid("clarity.monitor #3") }
        #expect(changes.map(\.to.name) == ["write frictionLevel", "shield.apply friction"])
        #expect(trace.arrows("shielding").map(\.from) == ["shield.apply friction"])
        #expect(trace.arrows("shielding").map(\.to) == ["shield.shown \(instagram)"])
        #expect(trace.arrows("configuration").map(\.from) == ["configuration(shielding:)"])
    }

    @Test func aShieldPressLeadsToShieldActionAndItsAnswer() throws {
        let device = try frictionRun()
        _ = try device.apply(.shieldPress(app: instagram, button: .secondary))
        let trace = ExportedTrace(trace: device.perfettoTrace())
        let callback = try #require(trace.slices("handle(action:for:)", on: "clarity.shieldAction #1").first)
        let clear = try #require(trace.slices("shield.clear friction", on: "clarity.shieldAction #1").first)
        #expect(trace.contains(callback, clear))
        let press = trace.arrows.filter { $0.rule == "press" }
        #expect(press.map(\.from.name) == ["shield.shown \(instagram)"])
        #expect(press.map(\.from.processID) == [trace.pid("springBoard")])
        #expect(press.map(\.to.name) == ["handle(action:for:)"])
        #expect(trace.arrows("response").map { "\($0.from) → \($0.to)" } == ["handle(action:for:) → shield.action secondary → none"])
        #expect(trace.arrows("change").last.map { "\($0.from) → \($0.to)" } == "handle(action:for:) → shield.clear friction")
    }

    @Test func aJetsammedCallbackEndsAtItsJetsam() throws {
        var config = DeviceConfig()
        config.memoryBudgets.monitor = config.baselineBytes + 16
        let device = try makeClarityDevice(config: config)
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 300)
        let trace = ExportedTrace(trace: device.perfettoTrace())
        let callback = try #require(trace.slices("eventDidReachThreshold", on: "clarity.monitor #2").first)
        let jetsam = try #require(trace.slices("jetsam", on: "clarity.monitor #2").first)
        #expect(trace.contains(callback, jetsam))
        #expect(jetsam.timestamp + (jetsam.duration ?? 0) <= callback.timestamp + (callback.duration ?? 0))
        #expect(trace.slices("notification Awareness Nudge", on: "clarity.monitor #2").isEmpty)
    }

    @Test func timestampsAreVirtualMicrosecondsInTraceOrder() throws {
        let device = try frictionRun()
        let effects = device.traceEntries(since: nil, limit: nil)
        let trace = device.perfettoTrace()
        let placed = trace.traceEvents.compactMap { event -> (Double, TracedEffect)? in
            guard event.phase == .complete || event.phase == .instant, case .effect(let effect)? = event.arguments else {
                return nil
            }
            return (event.timestamp, effect)
        }
        #expect(placed.map(\.1.entry.sequence) == effects.map(\.entry.sequence), "one event per trace entry, in order")
        #expect(zip(placed, placed.dropFirst()).allSatisfy { $0.0 < $1.0 }, "strictly increasing")
        #expect(placed.allSatisfy { ($0.0 / 1e6).rounded(.down) == $0.1.entry.time.seconds })
        let ticks = trace.traceEvents.filter { $0.phase != .metadata }.map(\.timestamp)
        #expect(ticks == ticks.sorted(), "the file is in timeline order")
    }

    @Test func aCrowdedInstantIsSqueezedBeforeTheNextOne() {
        let timeline = PerfettoTimeline(milliseconds: Array(repeating: 0, count: 3000) + [1])
        #expect(timeline.step(0) == 0.25)
        #expect(timeline.timestamp(2999) < timeline.timestamp(3000))
        #expect(timeline.timestamp(3000) == 1000)
        #expect(timeline.end(after: 2999) < 1000)
    }

    @Test func aWindowStartingInsideALaunchNamesItsProcess() throws {
        let device = try frictionRun()
        let callback = device.traceEntries(since: nil, limit: nil).last { $0.entry.payload == .extensionCallback(name: "eventDidReachThreshold") }
        let since = try #require(callback?.entry.sequence)
        let trace = ExportedTrace(trace: device.perfettoTrace(since: since))
        #expect(trace.processNames.contains("clarity.monitor (launched earlier)"))
        #expect(trace.trace.otherData.firstSeq == since + 1)
    }

    @Test func theJSONIsATraceEventObject() throws {
        let json = try JSONWire.value(try frictionRun().perfettoTrace())
        #expect(json["displayTimeUnit"] == "ms")
        #expect(json["otherData"]?["app"] == "clarity")
        #expect(json["otherData"]?["device"] == "test")
        #expect(json["otherData"]?["epoch"] == "2026-01-05T09:00:00Z")
        let events = try #require(json["traceEvents"]?.arrayValue)
        let instant = try #require(events.first { $0["ph"] == "i" })
        #expect(instant["s"] == "t")
        #expect(instant["args"]?["seq"] != nil && instant["args"]?["kind"] != nil)
        let end = try #require(events.first { $0["ph"] == "f" })
        #expect(end["bp"] == "e" && end["cat"] == "cause" && end["id"] != nil)
        let name = try #require(events.first { $0["ph"] == "M" && $0["name"] == "process_name" })
        #expect(name["args"]?["name"] == "clarity.app")
    }
}
