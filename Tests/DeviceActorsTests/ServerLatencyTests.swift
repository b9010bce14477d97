import DeviceTesting
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// A request to an app's own server takes the server's latency on the virtual clock, and an
/// intent (or an event whose extension sends one) waits for it: the clock moves on while it waits,
/// up to ``SimulatedDevice/longestWaitOnTime``; an app that waits longer has stalled (-32603).
@Suite struct ServerLatencyTests {
    /// Counts the requests it served.
    struct CountingServer: AppServer {
        var clock: Int64
        var served = 0

        init(instance: String, now: Int64) { clock = now }

        mutating func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest {
            served += 1
            return ServedRequest(response: HTTPResponse(statusCode: 200, body: Data("\(served)".utf8)))
        }
    }

    struct FetchingMainApp: Sendable {
        let platform: Platform

        func fetch() async throws -> Int {
            try await platform.urlSession.data(for: NetworkRequest(url: "https://api.counting.example/")).statusCode
        }
    }

    struct FetchingApp: SimulatedApp {
        let bundleIdentifier = "com.example.fetching"
        let appGroup = "group.com.example.fetching"
        let platform: Platform

        var intents: IntentTable {
            IntentTable(
                [AppIntent<FetchingMainApp>.named("fetch", NoArguments.self) { app, _ in try await app.fetch() }],
                on: FetchingMainApp(platform: platform))
        }
    }

    /// The app, its server answering after `latency` milliseconds.
    private static func fetching(latency: ClosedRange<Int>) -> AppRegistration {
        AppRegistration(
            description: AppDescription(name: "fetching", bundleIdentifier: nil, appGroup: nil, available: true, intents: []),
            server: ServerRegistration(CountingServer.self, name: "counting", latencyMilliseconds: latency)
        ) { platform, _ in FetchingApp(platform: platform) }
    }

    @Test func anIntentWaitsOutItsRequestsLatency() throws {
        let device = try TestDevice(app: Self.fetching(latency: 50...300), exhaustivity: .off)
        let before = try device.state().t
        #expect(try device.intent("fetch") == 200)
        let waited = Int(((try device.state().t - before) * 1000).rounded())
        #expect((50...300).contains(waited), "one round trip of 50–300 ms, not \(waited) ms")
    }

    /// A server slower than the longest wait: the intent is a stall, as an app that waits on
    /// what never comes, and the device goes on answering.
    @Test func anIntentWaitingLongerThanTheLongestWaitStalls() throws {
        let device = try TestDevice(app: Self.fetching(latency: 61_000...61_000), exhaustivity: .off)
        let error = #expect(throws: DeviceError.self) { try device.intent("fetch") }
        guard case .internalFailure(let message) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("went idle before the request finished"))
        #expect(try device.state().t <= SimulatedDevice.longestWaitOnTime.seconds)
    }
}
