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

    /// One work, "upload": posts, then marks it done in the App Group; `retry` on a 503.
    struct UploadingApp: SimulatedApp {
        let bundleIdentifier = "com.example.upload"
        let appGroup = "group.com.example.upload"
        let platform: Platform

        func upload() async throws {
            let session = platform.urlSession
            let defaults = platform.userDefaults(suiteName: appGroup)
            try await platform.workManager.enqueueUniqueWork(
                "upload", .replace,
                OneTimeWorkRequest(requiresNetwork: true, initialBackoffSeconds: 60) { attempt in
                    let response = try await session.data(for: NetworkRequest(url: "https://api.example.com/upload", httpMethod: "POST"))
                    guard response.statusCode == 200 else { return attempt < 2 ? .retry : .failure }
                    try await defaults.set(.int(attempt), forKey: "uploadedAtAttempt")
                    return .success
                })
        }

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
                ],
                on: self)
        }
    }

    private func device(_ server: CountingServer) throws -> TestDevice {
        var config = DeviceConfig()
        config.platform = .android
        let device = try SimulatedDevice(
            name: "phone", appName: "upload", start: Date(timeIntervalSince1970: 1_767_603_600), timeZone: .gmt, seed: 1,
            clock: .virtual, config: config, transport: server
        ) { platform, _ in UploadingApp(platform: platform) }
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
}
