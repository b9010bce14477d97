import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) @testable import DeviceActors
@_spi(Host) import SimulatediOS

/// Android's WorkManager as the platform simulates it (docs/platform.md, Android): a unique work
/// waits for the network, `REPLACE` cancels a run in flight at its next platform call (what the
/// server already did stays done), and a retry waits its exponential backoff on the virtual clock.
@Suite struct WorkManagerTests {
    /// A server that answers 200 to everything and counts what it was sent.
    final class CountingServer: NetworkTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [String] = []
        var failing = false
        let tickPeriodSeconds: Int? = nil

        var requests: [String] { lock.withLock { received } }

        func exchange(_ request: NetworkRequest, at now: Int64) -> HTTPResponse? {
            lock.withLock {
                received.append(request.path)
                return HTTPResponse(statusCode: failing ? 503 : 200, body: Data())
            }
        }

        func tick(at now: Int64) -> [PushMessage] { [] }
    }

    /// Posts, then marks it done in the App Group; `retry` on a 503 for its first two runs.
    struct UploadWorker: CoroutineWorker {
        let platform: Platform
        let appGroup: String

        func doWork(runAttemptCount: Int) async throws -> WorkResult {
            let response = try await platform.urlSession.data(for: NetworkRequest(url: "https://api.example.com/upload", httpMethod: "POST"))
            guard response.statusCode == 200 else { return runAttemptCount < 2 ? .retry : .failure }
            try await platform.userDefaults(suiteName: appGroup).set(.int(runAttemptCount), forKey: "uploadedAtAttempt")
            return .success
        }
    }

    /// Notes its run in the App Group, without the network it requires; `retry` for its first two runs.
    struct NoteWorker: CoroutineWorker {
        let platform: Platform
        let appGroup: String

        func doWork(runAttemptCount: Int) async throws -> WorkResult {
            try await platform.userDefaults(suiteName: appGroup).set(.int(runAttemptCount), forKey: "notedAtAttempt")
            return runAttemptCount < 2 ? .retry : .success
        }
    }

    /// A worker the app names in a request but cannot make (a class left out of the build).
    struct MissingWorker: CoroutineWorker {
        func doWork(runAttemptCount: Int) async throws -> WorkResult { .success }
    }

    /// One work, "upload" (``UploadWorker``), and "missing", whose worker the app does not make.
    struct UploadingApp: SimulatedApp {
        let bundleIdentifier = "com.example.upload"
        let appGroup = "group.com.example.upload"
        let platform: Platform

        func upload() async throws {
            try await platform.workManager.enqueueUniqueWork(
                "upload", .replace, OneTimeWorkRequest(UploadWorker.self, requiresNetwork: true, initialBackoffSeconds: 60))
        }

        func createWorker(workerClassName: String) -> (any CoroutineWorker)? {
            switch workerClassName {
            case String(describing: UploadWorker.self): UploadWorker(platform: platform, appGroup: appGroup)
            case String(describing: NoteWorker.self): NoteWorker(platform: platform, appGroup: appGroup)
            default: nil
            }
        }

        static let noteRequest = OneTimeWorkRequest(NoteWorker.self, requiresNetwork: true, initialBackoffSeconds: 60)

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<UploadingApp>.named("upload", NoArguments.self) { app, _ in
                        try await app.upload()
                        return "enqueued"
                    },
                    AppIntent<UploadingApp>.named("uploadTwice", NoArguments.self) { app, _ in
                        try await app.upload()
                        try await app.upload()
                        return "enqueued twice"
                    },
                    AppIntent<UploadingApp>.named("note", NoArguments.self) { app, _ in
                        try await app.platform.workManager.enqueueUniqueWork("note", .replace, Self.noteRequest)
                        return "enqueued"
                    },
                    AppIntent<UploadingApp>.named("missing", NoArguments.self) { app, _ in
                        try await app.platform.workManager.enqueueUniqueWork(
                            "missing", .keep, OneTimeWorkRequest(MissingWorker.self, requiresNetwork: false))
                        return "enqueued"
                    },
                ],
                on: self)
        }
    }

    /// The app as a catalog has it, on Android: what a snapshot is restored with.
    static let uploading = AppRegistration(
        description: AppDescription(name: "upload", bundleIdentifier: nil, appGroup: nil, available: true, intents: []),
        platforms: [.android]
    ) { platform, _ in UploadingApp(platform: platform) }

    private static var android: DeviceConfig {
        var config = DeviceConfig()
        config.platform = .android
        return config
    }

    /// `device` saved to JSON and restored from it, as a compaction or a restart does; only
    /// `work` and `store.write` effects are asserted from there.
    private func restored(_ device: TestDevice) throws -> (TestDevice, DeviceSnapshot) {
        let saved = try JSONDecoder().decode(DeviceSnapshot.self, from: JSONEncoder().encode(try device.device.snapshot()))
        let restored = TestDevice(
            wrapping: try SimulatedDevice(restoring: saved, catalog: AppCatalog([Self.uploading])),
            exhaustivity: .kinds(["work", "store.write"]))
        return (restored, saved)
    }

    private func noted(_ attempt: Int) -> Effect {
        .storeWrite(suite: "group.com.example.upload", key: "notedAtAttempt", value: .int(attempt))
    }

    private func device(_ server: CountingServer) throws -> TestDevice {
        var config = DeviceConfig()
        config.platform = .android
        let device = try SimulatedDevice(
            DeviceDescription(
                name: "phone", apps: .own(name: "upload", transport: server) { platform, _ in UploadingApp(platform: platform) },
                start: Date(timeIntervalSince1970: 1_767_603_600), timeZone: .gmt, seed: 1, config: config))
        return TestDevice(wrapping: device)
    }

    @Test func aWorkNeedingTheNetworkWaitsForIt() throws {
        let server = CountingServer()
        let device = try device(server)
        try device.send(.networkOffline, effects: [.network(online: false)])
        _ = try device.intent(
            "upload",
            effects: [
                .work(name: "upload", event: "enqueued", attempt: 0),
                .work(name: "upload", event: "waitingForNetwork", attempt: 0),
            ])
        #expect(server.requests.isEmpty)
        try device.send(
            .networkOnline,
            effects: [
                .network(online: true), .work(name: "upload", event: "started", attempt: 0),
                .networkRequest(method: "POST", path: "/upload", status: 200, error: nil),
                .storeWrite(suite: "group.com.example.upload", key: "uploadedAtAttempt", value: .int(0)),
                .work(name: "upload", event: "succeeded", attempt: 0),
            ])
        #expect(server.requests == ["/upload"])
    }

    @Test func replaceCancelsTheRunInFlightAndOnlyTheNewOneFinishes() throws {
        let server = CountingServer()
        let device = try device(server)
        device.exhaustivity = .off
        _ = try device.intent("uploadTwice")
        let work = device.device.traceEntries(since: nil, limit: nil, kinds: ["work"]).map { "\($0.entry.payload)" }
        #expect(work.contains { $0.contains("cancelled") })
        #expect(work.filter { $0.contains("succeeded") }.count == 1)
        #expect(try device.device.storeGet(suite: "group.com.example.upload", key: "uploadedAtAttempt") == .int(0))
    }

    @Test func aRetryWaitsItsExponentialBackoff() throws {
        let server = CountingServer()
        server.failing = true
        let device = try device(server)
        device.exhaustivity = .off
        _ = try device.intent("upload")
        #expect(server.requests.count == 1)
        try device.advance(seconds: 59)
        #expect(server.requests.count == 1, "the first backoff is 60 s")
        try device.advance(seconds: 1)
        #expect(server.requests.count == 2)
        try device.advance(seconds: 119)
        #expect(server.requests.count == 2, "the second backoff is 120 s")
        try device.advance(seconds: 1)
        #expect(server.requests.count == 3)
        let ends = device.device.traceEntries(since: nil, limit: nil, kinds: ["work"]).map { "\($0.entry.payload)" }.last
        #expect(ends?.contains("failed") == true, "after its third attempt the work fails")
    }

    /// WorkManager keeps its works in its database: a work waiting for the network is in the
    /// snapshot and starts when the restored device is online again (a compaction lost it).
    @Test func aWorkWaitingForTheNetworkSurvivesASnapshot() throws {
        let device = try TestDevice(app: Self.uploading, config: Self.android, exhaustivity: .kinds(["work", "store.write"]))
        try device.send(.networkOffline)
        _ = try device.intent(
            "note",
            effects: [.work(name: "note", event: "enqueued", attempt: 0), .work(name: "note", event: "waitingForNetwork", attempt: 0)])
        let (restored, saved) = try restored(device)
        #expect(saved.works == [PendingWork(name: "note", request: UploadingApp.noteRequest, attempts: 0, wait: .network)])
        try restored.send(
            .networkOnline,
            effects: [.work(name: "note", event: "started", attempt: 0), noted(0), .work(name: "note", event: "retry", attempt: 1)])
        try restored.advance(seconds: 60, effects: [.work(name: "note", event: "started", attempt: 1), noted(1), .work(name: "note", event: "retry", attempt: 2)])
        try restored.advance(seconds: 120, effects: [.work(name: "note", event: "started", attempt: 2), noted(2), .work(name: "note", event: "succeeded", attempt: 2)])
        #expect(try restored.device.snapshot().works == nil, "a work that succeeded is no longer kept")
    }

    /// A retry's backoff is in the snapshot with the instant it ends: 30 s into the first
    /// 60-s backoff, the restored device runs the work 30 s later, not 60 or never.
    @Test func aBackoffSurvivesASnapshotAndEndsWhenItWould() throws {
        let device = try TestDevice(app: Self.uploading, config: Self.android, exhaustivity: .kinds(["work", "store.write"]))
        _ = try device.intent(
            "note",
            effects: [
                .work(name: "note", event: "enqueued", attempt: 0), .work(name: "note", event: "started", attempt: 0), noted(0),
                .work(name: "note", event: "retry", attempt: 1),
            ])
        try device.advance(seconds: 30)
        let (restored, saved) = try restored(device)
        let due = saved.nowMilliseconds + 30_000
        #expect(saved.works == [PendingWork(name: "note", request: UploadingApp.noteRequest, attempts: 1, wait: .backoff(untilMilliseconds: due))])
        try restored.advance(seconds: 29)
        try restored.advance(seconds: 1, effects: [.work(name: "note", event: "started", attempt: 1), noted(1), .work(name: "note", event: "retry", attempt: 2)])
    }

    /// Android's `WorkerFactory` finding no class of that name fails the work ("Could not create
    /// Worker"): traced as the app's error, then `failed`.
    @Test func aWorkerTheAppCannotMakeFailsTheWork() throws {
        let device = try TestDevice(app: Self.uploading, config: Self.android, exhaustivity: .kinds(["work", "app.error"]))
        _ = try device.intent(
            "missing",
            effects: [
                .work(name: "missing", event: "enqueued", attempt: 0), .work(name: "missing", event: "started", attempt: 0),
                .appError(callback: "work missing", message: "could not create worker MissingWorker: the app's createWorker has none"),
                .work(name: "missing", event: "failed", attempt: 0),
            ])
    }

    /// WorkManager's bounds on a backoff: the initial delay within 10 s and 5 h, as
    /// `setBackoffCriteria` clamps it, and every doubling at most 5 h.
    @Test func aBackoffStaysWithinWorkManagersBounds() {
        #expect(OneTimeWorkRequest(NoteWorker.self, requiresNetwork: false, initialBackoffSeconds: 1).initialBackoffSeconds == 10)
        #expect(OneTimeWorkRequest(NoteWorker.self, requiresNetwork: false, initialBackoffSeconds: 1e300).initialBackoffSeconds == 18_000)
        #expect(OneTimeWorkRequest(NoteWorker.self, requiresNetwork: false, initialBackoffSeconds: .nan).initialBackoffSeconds == 10)
        #expect(OneTimeWorkRequest(NoteWorker.self, requiresNetwork: false).initialBackoffSeconds == 30, "Android's default")
        let request = UploadingApp.noteRequest
        #expect([1, 2, 3, 9, 10, 1_000, Int.max].map(request.backoffSeconds(afterAttempts:)) == [60, 120, 240, 15_360, 18_000, 18_000, 18_000])
    }
}
