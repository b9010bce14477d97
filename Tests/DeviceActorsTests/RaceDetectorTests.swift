import ExtensionSandbox
import DeviceTesting
import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// The App Group race detector (config `raceDetector`, docs/platform.md): a run of a process (a
/// callback, an intent) that read a key, then wrote it after another process's write it never
/// read, is traced as `race`.
@Suite struct RaceDetectorTests {
    private static let suite = "group.com.clarity.focus"

    private func device(raceDetector: Bool = true, quirks: [String] = []) throws -> SimulatedDevice {
        var config = DeviceConfig()
        config.raceDetector = raceDetector
        for quirk in quirks { config.quirks[quirk] = true }
        return try makeClarityDevice(config: config)
    }

    private func setWiFiGate(_ device: SimulatedDevice, enabled: Bool) throws -> [TracedEffect] {
        try device.perform(intent: "setWiFiGate", arguments: JSONArguments(["enabled": .bool(enabled)])).effects
    }

    // MARK: - The rule: a read and a write in one invocation, another process's write between

    /// `setWiFiGate` writes `wifiGateEnabled` without reading it first: a plain write, even over
    /// an outside write, and even though the previous intent read the key (its gate check).
    @Test func aPlainWriteInALaterIntentIsNoRace() throws {
        let device = try device()
        let first = try setWiFiGate(device, enabled: true)
        #expect(first.contains { $0.isRead(of: "wifiGateEnabled", by: "clarity.app") }, "the earlier intent read it")
        _ = try device.storeSet(suite: nil, key: "wifiGateEnabled", value: .bool(false))
        #expect(try setWiFiGate(device, enabled: true).races.isEmpty)
    }

    @Test func aWriteOverAnOutsideWriteItsInvocationNeverReadIsARace() throws {
        let device = try device()
        let effects = try device.loseAnOutsideWrite()
        let read = try #require(effects.first { $0.isRead(of: "counter", by: "clarity.app") })
        let otherWrite = try #require(effects.first { $0.isWrite(of: "counter") && $0.entry.actor == "outside" })
        let write = try #require(effects.last { $0.isWrite(of: "counter") })
        #expect(write.entry.actor == "clarity.app")
        #expect(
            effects.races.map(\.payload) == [
                .race(
                    LostUpdate(
                        suite: Self.suite, key: "counter", readSeq: read.entry.sequence, otherActor: "outside",
                        otherWriteSeq: otherWrite.entry.sequence, writeSeq: write.entry.sequence))
            ])
        let race = try #require(effects.races.first)
        #expect(race.actor == "clarity.app")
        #expect(race.sequence == write.entry.sequence + 1, "traced right after the write it judges")
        #expect(device.traceEntries(since: nil, limit: nil, kinds: ["race"]).count == 1)
    }

    @Test func aReadAfterTheOtherWriteIsNoRace() throws {
        let device = try device()
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await defaults.setAsOutside(.int(5), forKey: "counter")
            _ = try await defaults.object(forKey: "counter")
            try await defaults.set(.int(6), forKey: "counter")
        }
        #expect(effects.races.isEmpty)
    }

    @Test func theSameInvocationReadingAndWritingIsNoRace() throws {
        let device = try device()
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await defaults.set(.int(1), forKey: "counter")
            _ = try await defaults.object(forKey: "counter")
            try await defaults.set(.int(2), forKey: "counter")
        }
        #expect(effects.races.isEmpty)
    }

    /// Two runs of the main app are one process: an intent's write between another run's read
    /// and write is the app's own business, not a lost update between processes.
    @Test func anotherRunOfTheSameProcessWritingBetweenIsNoRace() throws {
        let device = try device()
        let springBoard = device.springBoard
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await springBoard.runMainApp { try await defaults.set(.int(5), forKey: "counter") }
            try await defaults.set(.int(6), forKey: "counter")
        }
        #expect(effects.filter { $0.isWrite(of: "counter") }.count == 2)
        #expect(effects.races.isEmpty)
    }

    @Test func aLostUpdateIsReportedOnce() throws {
        let device = try device()
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await defaults.setAsOutside(.int(5), forKey: "counter")
            try await defaults.set(.int(1), forKey: "counter")
            try await defaults.set(.int(2), forKey: "counter")
        }
        #expect(effects.races.count == 1)
    }

    @Test func switchedOffNothingIsTracedAndTracesStayAsTheyWere() throws {
        func run(_ device: SimulatedDevice) throws -> [TracedEffect] {
            _ = try setWiFiGate(device, enabled: true)
            _ = try device.loseAnOutsideWrite()
            return device.traceEntries(since: nil, limit: nil)
        }
        let off = try run(try device(raceDetector: false))
        #expect(!off.contains { $0.entry.payload.kind == "race" })
        #expect(!off.contains { $0.isRead(of: "wifiGateEnabled", by: "clarity.app") }, "main-app reads are not traced")
        let on = try run(try device())
        #expect(on.filter { $0.entry.payload.kind == "race" }.count == 1)
        let onWithoutDetector = on.filter { $0.entry.actor != "clarity.app" || !["store.read", "race"].contains($0.entry.payload.kind) }
        #expect(onWithoutDetector.map(\.entry.payload) == off.map(\.entry.payload))
    }

    @Test func switchingItOnWithDeviceConfigTakesEffectAtOnce() throws {
        let device = try device(raceDetector: false)
        var overrides = DeviceConfig.Overrides()
        overrides.raceDetector = true
        #expect(try device.updateConfig(overrides).raceDetector)
        #expect(try device.loseAnOutsideWrite().races.count == 1)

        overrides.raceDetector = false
        _ = try device.updateConfig(overrides)
        #expect(try device.loseAnOutsideWrite().races.isEmpty)
    }

    /// `device.state` reads the App Group as an observer: nothing is traced, and it is no
    /// invocation of the main app.
    @Test func lookingAtTheDeviceIsNoRead() throws {
        let device = try device()
        _ = try setWiFiGate(device, enabled: true)
        let before = device.mark
        #expect(try device.state().appState is ClarityMainApp.State)
        #expect(device.changes(since: before) == .none)
        #expect(try device.loseAnOutsideWrite().races.count == 1)
    }

    // MARK: - Processes: extensions and their launches

    /// A resident extension may keep what it read in memory, but the detector pairs a write only
    /// with the reads of its own callback: a read in an earlier callback of the same launch does
    /// not count (a value carried in memory is not followed, docs/platform.md).
    @Test func aResidentExtensionsReadInAnEarlierCallbackDoesNotCount() throws {
        let device = try device()
        _ = try device.inShieldAction { _ = try await $0.object(forKey: "counter") }
        _ = try device.storeSet(suite: nil, key: "counter", value: .int(5))
        let effects = try device.inShieldAction { try await $0.set(.int(1), forKey: "counter") }
        #expect(!effects.contains { $0.entry.payload.kind == "extension.launch" }, "still the same process")
        #expect(effects.races.isEmpty)
    }

    @Test func aRelaunchedExtensionHasReadNothing() throws {
        let device = try device()
        _ = try device.inShieldAction { _ = try await $0.object(forKey: "counter") }
        try device.reclaimShieldAction()
        _ = try device.storeSet(suite: nil, key: "counter", value: .int(5))
        let effects = try device.inShieldAction { try await $0.set(.int(1), forKey: "counter") }
        #expect(effects.contains { $0.entry.payload.kind == "extension.launch" }, "a new process")
        #expect(effects.races.isEmpty)
    }

    /// The shield action reads, the main app writes while the callback runs, the callback writes.
    @Test func anExtensionsWriteOverTheMainAppsIsARace() throws {
        let device = try device()
        let springBoard = device.springBoard
        let effects = try device.inShieldAction { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await springBoard.runMainApp { try await defaults.set(.int(7), forKey: "counter") }
            try await defaults.set(.int(1), forKey: "counter")
        }
        let race = try #require(effects.races.first)
        #expect(race.actor == "clarity.shieldAction")
        #expect(race.sandbox == "shieldAction")
        guard case .race(let lost) = race.payload else { return }
        #expect(lost.otherActor == "clarity.app")
        #expect(lost.otherWriteSeq == effects.first { $0.isWrite(of: "counter") && $0.entry.actor == "clarity.app" }?.entry.sequence)
    }

    // MARK: - Quirks

    /// An extension's write reaches the other processes after the delay (here: at the
    /// extension's `synchronize()`): a read before then did not see it, so the main app's write
    /// after it, in the same run, overwrites it unseen.
    @Test func lateDefaultsPropagationAReadBeforeTheWriteArrivesDoesNotCoverIt() throws {
        let device = try device(quirks: ["lateDefaultsPropagation"])
        let springBoard = device.springBoard
        _ = try device.inShieldAction { try await $0.set(.int(1), forKey: "counter") }
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await springBoard.apps[0].shieldAction.run(callback: "handle(action:for:)") { _ in try await defaults.synchronize() }
            try await defaults.set(.int(2), forKey: "counter")
        }
        guard case .race(let lost)? = effects.races.first?.payload else {
            Issue.record("no race")
            return
        }
        #expect(lost.readSeq == effects.first { $0.entry.payload.kind == "store.read" }?.entry.sequence)
        #expect(lost.otherActor == "clarity.shieldAction")
        #expect(lost.otherWriteSeq < lost.readSeq, "written before the read, arrived after it")
    }

    /// The extension's write lands after the main app's, which it never saw (reading again, it
    /// sees its own pending value): the race is traced when the write arrives, under the extension.
    @Test func lateDefaultsPropagationALateWriteClobbersANewerOne() throws {
        let device = try device(quirks: ["lateDefaultsPropagation"])
        let write = try device.inShieldAction {
            _ = try await $0.object(forKey: "counter")
            try await $0.set(.int(1), forKey: "counter")
        }
        let main = try device.inMainApp { try await $0.set(.int(2), forKey: "counter") }
        let reread = try device.inShieldAction { _ = try await $0.object(forKey: "counter") }
        #expect(reread.map(\.entry.payload).contains(.storeRead(suite: Self.suite, key: "counter", bytes: 8)), "its own 1")
        let arrival = try device.advance(seconds: 1).effects
        let race = try #require(arrival.races.first)
        #expect(race.actor == "clarity.shieldAction")
        #expect(try device.storeGet(suite: nil, key: "counter") == .int(1))
        guard case .race(let lost) = race.payload else { return }
        #expect(lost.writeSeq == write.first { $0.isWrite(of: "counter") }?.entry.sequence)
        #expect(lost.otherWriteSeq == main.first { $0.isWrite(of: "counter") }?.entry.sequence)
    }

    /// The main app reads; the extension writes (pending) and is reclaimed; the main app
    /// writes: the pending write never reached the store, so nothing was lost, then or when it
    /// is dropped.
    @Test func lateDefaultsPropagationALostWriteNeverCounts() throws {
        let device = try device(quirks: ["lateDefaultsPropagation"])
        let springBoard = device.springBoard
        let effects = try device.inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await springBoard.apps[0].shieldAction.run(callback: "handle(action:for:)") { _ in try await defaults.set(.int(1), forKey: "counter") }
            await springBoard.apps[0].shieldAction.terminate()
            try await defaults.set(.int(2), forKey: "counter")
        }
        #expect(effects.races.isEmpty)
        let later = try device.advance(seconds: 1)
        #expect(later.kinds.contains("store.writeLost"))
        #expect(later.effects.races.isEmpty)
        #expect(try device.storeGet(suite: nil, key: "counter") == .int(2))
    }

    /// Before the first unlock an extension reads the App Group as empty: its write after that
    /// read overwrites a value it could not see, even one stored before its read.
    @Test func emptyDefaultsBeforeFirstUnlockABlankReadSawNoWrite() throws {
        for quirk in [false, true] {
            let device = try device(quirks: quirk ? ["emptyDefaultsBeforeFirstUnlock"] : [])
            let outside = try device.storeSet(suite: nil, key: "counter", value: .int(5)).effects
            _ = try device.apply(.reboot)
            let effects = try device.inShieldAction {
                _ = try await $0.object(forKey: "counter")
                try await $0.set(.int(1), forKey: "counter")
            }
            #expect(effects.races.count == (quirk ? 1 : 0), "quirk \(quirk)")
            if case .race(let lost)? = effects.races.first?.payload {
                #expect(lost.otherWriteSeq == outside.first?.entry.sequence)
                #expect(lost.otherWriteSeq < lost.readSeq)
            }
        }
    }

    // MARK: - Clarity

    /// Clarity's one key written by both the main app and an extension: `prosocialChallengeVerified`.
    /// With thresholds delivered late (`batchedThresholds`), the monitor marks the text challenge
    /// verified after the user is back in Clarity, which already looked (false); "open challenge"
    /// again restarts verification and writes false over the monitor's true: the text is lost.
    /// That is Clarity's stale-verification bug (the `challengeVerifiedByTexting` invariant's),
    /// but no lost update: `challenge.open` resets the key without reading it, and the read was
    /// made by an earlier run of the main app (becoming active). The detector once reported it.
    @Test func clarityResettingAVerifiedTextIsNoLostUpdate() throws {
        let device = try device(quirks: ["batchedThresholds"])
        _ = try device.apply(.contactsSet([Contact(id: "m", name: "Mom", phone: "+15550100")]))
        _ = try device.perform(intent: "setImportantContacts", arguments: JSONArguments(["contacts": [["id": "m"]]]))
        _ = try device.perform(intent: "selectApps", arguments: JSONArguments(["apps": [.string(instagram)]]))
        _ = try device.apply(.appOpen(app: instagram))
        _ = try device.advance(seconds: 660)  // layer 2 at 600 s, delivered with the batch at 660 s
        _ = try device.apply(.appOpen(app: "com.clarity.focus"))
        _ = try device.perform(intent: "challenge.open", arguments: JSONArguments())
        _ = try device.advance(seconds: 40)  // 40 s in Messages: the 30-second threshold waits for the batch at 720 s
        let back = try device.apply(.appOpen(app: "com.clarity.focus")).effects
        #expect(back.contains { $0.isRead(of: "prosocialChallengeVerified", by: "clarity.app") })
        let batch = try device.advance(seconds: 30).effects
        let verified = try #require(batch.first { $0.isWrite(of: "prosocialChallengeVerified") })
        #expect(verified.entry.actor == "clarity.monitor")

        let reopened = try device.perform(intent: "challenge.open", arguments: JSONArguments()).effects
        #expect(reopened.contains { $0.isWrite(of: "prosocialChallengeVerified") && $0.entry.actor == "clarity.app" })
        #expect(!reopened.contains { $0.isRead(of: "prosocialChallengeVerified", by: "clarity.app") })
        #expect(reopened.races.isEmpty)
        _ = try device.apply(.appOpen(app: "com.clarity.focus"))
        let state = try #require(try device.state().appState as? ClarityMainApp.State)
        #expect(state.challenge?.status == "waitingForAction", "the text the user sent no longer counts")
    }
}

extension [TracedEffect] {
    fileprivate var races: [TraceEntry<Effect>] { map(\.entry).filter { $0.payload.kind == "race" } }
}

extension TracedEffect {
    fileprivate func isRead(of key: String, by actor: String) -> Bool {
        guard case .storeRead(_, key, _, _) = entry.payload else { return false }
        return entry.actor == actor
    }

    fileprivate func isWrite(of key: String) -> Bool {
        if case .storeWrite(_, key, _) = entry.payload { return true }
        return false
    }
}

extension AppGroupDefaults {
    /// Writes `key` as `outside` (`store.set`), from within another process's run.
    fileprivate func setAsOutside(_ value: StoredValue, forKey key: String) async throws {
        try await CallbackContext.$current.withValue(CallbackContext(unsandboxedActor: "outside")) {
            try await set(value, forKey: key)
        }
    }
}

extension SimulatedDevice {
    /// One run of the main app reads `counter`, an outside write lands meanwhile, and the same
    /// run writes `counter`: the outside value is lost.
    fileprivate func loseAnOutsideWrite() throws -> [TracedEffect] {
        try inMainApp { defaults in
            _ = try await defaults.object(forKey: "counter")
            try await defaults.setAsOutside(.int(5), forKey: "counter")
            try await defaults.set(.int(1), forKey: "counter")
        }
    }

    /// Runs `body` as the main app, with the app's App Group suite; returns what it traced.
    fileprivate func inMainApp(_ body: @escaping @Sendable (AppGroupDefaults) async throws -> Void) throws -> [TracedEffect] {
        let springBoard = springBoard
        let defaults = platform.userDefaults(suiteName: app.appGroup)
        return try traced { try await springBoard.runMainApp { try await body(defaults) } }
    }

    /// Runs `body` as a callback of the ShieldAction extension (launched if it is not running).
    fileprivate func inShieldAction(_ body: @escaping @Sendable (AppGroupDefaults) async throws -> Void) throws
        -> [TracedEffect]
    {
        let springBoard = springBoard
        let defaults = platform.userDefaults(suiteName: app.appGroup)
        return try traced {
            try await springBoard.apps[0].shieldAction.run(callback: "handle(action:for:)") { _ in try await body(defaults) }
        }
    }

    /// The system reclaims the idle ShieldAction extension: its next callback launches a new process.
    fileprivate func reclaimShieldAction() throws {
        let springBoard = springBoard
        try run { await springBoard.apps[0].shieldAction.terminate() }
    }

    private func traced(_ body: @escaping @Sendable () async throws -> Void) throws -> [TracedEffect] {
        let from = trace.recorder.lastSequence
        try run(body)
        return traceEntries(since: from, limit: nil)
    }
}
