import Testing

@_spi(Host) @testable import SimulatediOS

/// `Effect.kinds` is what `subscribe` and `trace.get` accept in `kinds`: it must name every kind
/// a device can trace, once each, and `heldBytes` must count what an effect carries.
@Suite struct EffectKindsTests {
    static let oneOfEach: [Effect] = [
        .extensionLaunch(baselineBytes: 1), .extensionCallback(name: "c"), .extensionJetsam(usedBytes: 1, budgetBytes: 1),
        .extensionTerminate, .storeRead(suite: "s", key: "k", bytes: 1), .storeWrite(suite: "s", key: "k", value: .int(1)),
        .storeRemove(suite: "s", key: "k"), .storeWriteLost(suite: "s", key: "k"),
        .race(LostUpdate(suite: "s", key: "k", readSeq: 1, otherActor: "a", otherWriteSeq: 2, writeSeq: 3)),
        .shieldApply(store: "s", applications: ["a"], categories: .none), .shieldClear(store: "s"),
        .shieldShown(
            app: "a", configuration: ShieldConfiguration(title: "t", subtitle: "s", primaryButtonLabel: "p", secondaryButtonLabel: nil),
            source: .extension),
        .shieldAction(app: "a", button: .primary, response: .close), .notification(title: "t", body: "b"),
        .monitorIntervalStart(activity: "a"), .monitorIntervalEnd(activity: "a"), .monitorThreshold(activity: "a", event: "e"),
        .monitorWarning(activity: "a", warning: .intervalWillEnd, event: nil), .activityStart(activity: "a"),
        .activityStop(activity: "a"), .appState(locked: false, foregroundApp: nil, shieldShown: false), .intent(name: "i"),
        .clockAdvance(seconds: 1), .wifi(ssid: nil), .call(nil), .contacts(count: 1), .reboot, .focusMode(on: true),
        .openURL(url: "u"), .storeKit(transaction: "t", product: "p"), .app(event: "e", fields: [:]),
        .appError(callback: "c", message: "m"),
    ]

    @Test func everyKindIsListedOnce() {
        #expect(Self.oneOfEach.map(\.kind) == Effect.kinds)
        #expect(Set(Effect.kinds).count == Effect.kinds.count)
    }

    @Test func aLargeValueCountsItsBytes() {
        let value = StoredValue.array([.string(String(repeating: "x", count: 10_000)), .data(.init(count: 5_000))])
        let write = Effect.storeWrite(suite: "group.x", key: "k", value: value)
        #expect(write.heldBytes >= 15_000 && write.heldBytes < 15_200)
        #expect(Effect.reboot.heldBytes == 0)
    }
}
