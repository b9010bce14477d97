import ControlProtocol
import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// `Effect.kinds` is what `subscribe` and `trace.get` accept in `kinds`: it must name every kind
/// a device can trace, once each; `heldBytes` must count what an effect carries; and a snapshot
/// must read back every kind of event exactly as it was traced.
@Suite struct EffectKindsTests {
    static let oneOfEach: [Effect] = [
        .extensionLaunch(baselineBytes: 1), .extensionCallback(name: "c"), .extensionJetsam(usedBytes: 1, budgetBytes: 1),
        .extensionTerminate, .storeRead(suite: "s", key: "k", bytes: 1), .storeWrite(suite: "s", key: "k", value: .int(1)),
        .storeRemove(suite: "s", key: "k"), .storeWriteLost(suite: "s", key: "k"),
        .race(LostUpdate(suite: "s", key: "k", readSeq: 1, otherActor: "a", otherWriteSeq: 2, writeSeq: 3)),
        .shieldApply(store: "s", applications: ["a"], categories: .none), .shieldClear(store: "s"),
        .shieldShown(
            app: "a",
            configuration: ShieldConfiguration(
                backgroundColor: "#1C1C1E", icon: "hourglass", title: .init(text: "t", color: "white"), subtitle: .init(text: "s"),
                primaryButtonLabel: .init(text: "p")),
            source: .extension),
        .shieldAction(app: "a", button: .primary, response: .close), .notification(title: "t", body: "b"),
        .monitorIntervalStart(activity: "a"), .monitorIntervalEnd(activity: "a"), .monitorThreshold(activity: "a", event: "e"),
        .monitorWarning(activity: "a", warning: .intervalWillEnd, event: nil), .activityStart(activity: "a"),
        .activityStop(activity: "a"), .appState(locked: false, foregroundApp: nil, shieldShown: false), .intent(name: "i"),
        .clockAdvance(seconds: 1), .wifi(ssid: nil), .call(nil), .contacts(count: 1), .reboot, .focusMode(on: true),
        .openURL(url: "u"), .storeKit(transaction: "t", product: "p"), .app(event: "e", fields: [:]),
        .appError(callback: "c", message: "m"), .fault(fault: "jetsam", at: "read group.x/k"),
        .timerLost(label: "l", reason: "ended"), .taskCancelled(at: "write group.x/k", reason: "ended"),
        .notificationAuthorization(granted: true),
        .notificationSuppressed(title: "t", body: "b", reason: "notDetermined"),
        .healthSample(kind: "steps", value: 1),
        .healthFail(count: 1),
        .appLaunch(reason: "open"),
        .appTerminate,
        .network(online: false),
        .networkRequest(method: "POST", path: "/events/sync", status: 200, error: nil),
        .push(title: "t", body: "b", category: "curiosity"),
        .automation(trigger: "unlock", shortcut: "RecordUnlockIntent", outcome: "ran"),
        .work(name: "sync", event: "enqueued", attempt: 0), .log(level: .info, category: "c", message: "m"),
        .notificationScheduled(identifier: "i", title: "t", due: "2026-01-05T09:00:00Z"), .notificationRemoved(identifier: "i"),
    ]

    @Test func everyKindIsListedOnce() {
        #expect(Self.oneOfEach.map(\.kind) == Effect.kinds)
        #expect(Set(Effect.kinds).count == Effect.kinds.count)
    }

    /// iOS's `ShieldConfiguration` initializer: the texts, and the look beyond them as
    /// `appearance` on the wire (absent when the app gave none).
    @Test func aShieldsLookIsTracedBesideItsTexts() throws {
        let calendar = DeviceCalendar(start: Date(timeIntervalSince1970: 1_767_600_000), timeZone: TimeZone(identifier: "UTC")!)
        func wire(_ configuration: ShieldConfiguration) throws -> [String: Any] {
            let entry = TraceEntry<Effect>(
                sequence: 1, time: VirtualInstant(milliseconds: 0), actor: "springBoard", sandbox: nil,
                payload: .shieldShown(app: "com.burbn.instagram", configuration: configuration, source: .extension))
            let data = try JSONEncoder().encode(TracedEffect(entry: entry, calendar: calendar))
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let styled = ShieldConfiguration(
            backgroundColor: "#1C1C1E", icon: "hourglass", title: .init(text: "Time's up", color: "white"),
            primaryButtonLabel: .init(text: "Close", color: "systemBlue"))
        #expect(styled.title == "Time's up" && styled.subtitle == "" && styled.primaryButtonLabel == "Close")
        let appearance = try #require(try wire(styled)["appearance"] as? [String: String])
        #expect(appearance == ["backgroundColor": "#1C1C1E", "icon": "hourglass", "titleColor": "white", "primaryButtonLabelColor": "systemBlue"])
        #expect(try wire(ShieldConfiguration(title: "t", subtitle: "s", primaryButtonLabel: "p", secondaryButtonLabel: nil))["appearance"] == nil)
        #expect(ShieldConfiguration(title: .init(text: "t")).appearance == nil, "texts alone have the system's look")
    }

    @Test func aLargeValueCountsItsBytes() {
        let value = StoredValue.array([.string(String(repeating: "x", count: 10_000)), .data(.init(count: 5_000))])
        let write = Effect.storeWrite(suite: "group.x", key: "k", value: value)
        #expect(write.heldBytes >= 15_000 && write.heldBytes < 15_200)
        #expect(Effect.reboot.heldBytes == 0)
    }

    @Test func everyKindOfEventReadsBackFromASnapshotAsItWasTraced() throws {
        let calendar = DeviceCalendar(start: Date(timeIntervalSince1970: 1_767_600_000), timeZone: TimeZone(identifier: "UTC")!)
        let entries = Self.oneOfEach.enumerated().map { index, effect in
            TraceEntry(
                sequence: index + 1, time: VirtualInstant(milliseconds: Int64(index) * 1_500 + 1), actor: "a\(index)",
                sandbox: index.isMultiple(of: 2) ? "monitor" : nil, payload: effect)
        }
        let saved = entries.map { SnapshotTraceEntry(TracedEffect(entry: $0, calendar: calendar)) }
        let read = try JSONDecoder().decode([SnapshotTraceEntry].self, from: JSONEncoder().encode(saved))
        #expect(read.map(\.entry.payload) == entries.map(\.payload))
        #expect(read.map(\.entry.sequence) == entries.map(\.sequence))
        #expect(read.map(\.entry.time) == entries.map(\.time))
        #expect(read.map(\.entry.actor) == entries.map(\.actor))
        #expect(read.map(\.entry.sandbox) == entries.map(\.sandbox))
        let withFields = Effect.app(event: "xpAwarded", fields: ["xp": .int(5), "reason": .string("call")])
        let app = TraceEntry(sequence: 1, time: .epoch, actor: "x", sandbox: nil, payload: withFields)
        let back = try JSONDecoder().decode(
            SnapshotTraceEntry.self, from: JSONEncoder().encode(SnapshotTraceEntry(TracedEffect(entry: app, calendar: calendar))))
        #expect(back.entry.payload == withFields)
    }

    /// A damaged snapshot's time is refused as unreadable (the restart sets the file aside), not
    /// trapped on converting it to milliseconds.
    @Test(arguments: ["1e300", "-1e300", "9.3e15", "1e19"])
    func aSnapshotEntryAtNoVirtualTimeIsRefused(time: String) throws {
        let calendar = DeviceCalendar(start: Date(timeIntervalSince1970: 1_767_600_000), timeZone: TimeZone(identifier: "UTC")!)
        let entry = TraceEntry(sequence: 1, time: .epoch, actor: "x", sandbox: nil, payload: Effect.reboot)
        let saved = String(decoding: try JSONEncoder().encode(SnapshotTraceEntry(TracedEffect(entry: entry, calendar: calendar))), as: UTF8.self)
        let damaged = saved.replacingOccurrences(of: #""t":0"#, with: #""t":\#(time)"#)
        #expect(damaged != saved)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SnapshotTraceEntry.self, from: Data(damaged.utf8)) }
    }
}
