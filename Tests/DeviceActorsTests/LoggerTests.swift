import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// A logger made as iOS code makes one, at file scope.
private let monitorLog = Logger(subsystem: "com.example.talking.monitor", category: "monitor")

/// `Logger` lands in the trace: a `log` effect under the process that logged, with its level,
/// category and message — made from the platform or at file scope as on iOS; a test need not
/// list it, and a snapshot keeps it.
@Suite struct LoggerTests {
    struct TalkingMonitor: DeviceActivityMonitor {
        func intervalDidStart(for activity: String) async throws { monitorLog.info("day \(activity) starts") }
    }

    struct TalkingMainApp: Sendable {
        let platform: Platform

        func watch() async throws {
            platform.logger(category: "main").notice("watching")
            try await platform.deviceActivityCenter.startMonitoring("daily", during: allDay)
        }
    }

    struct TalkingApp: SimulatedApp {
        let bundleIdentifier = "com.example.talking"
        let appGroup = "group.com.example.talking"
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { TalkingMonitor() }

        var intents: IntentTable {
            IntentTable(
                [AppIntent<TalkingMainApp>.named("watch", NoArguments.self) { app, _ in
                    try await app.watch()
                    return "watching"
                }],
                on: TalkingMainApp(platform: platform))
        }
    }

    @Test func eachMessageIsTracedUnderTheProcessThatLoggedItAndNeedNotBeListed() throws {
        let device = try TestDevice(appName: "talking") { platform, _ in TalkingApp(platform: platform) }
        try device.intent("watch", effects: [.activityStart(activity: "daily"), .monitorIntervalStart(activity: "daily")])
        let logs = device.device.traceEntries(since: nil, limit: nil, kinds: ["log"])
        #expect(logs.map(\.entry.actor) == ["talking.app", "talking.monitor"])
        #expect(
            logs.map(\.entry.payload) == [
                .log(level: .notice, category: "main", message: "watching"),
                .log(level: .info, category: "monitor", message: "day daily starts"),
            ])
        let wire = try JSONSerialization.jsonObject(with: JSONEncoder().encode(logs[1])) as? [String: Any]
        #expect(wire?["kind"] as? String == "log" && wire?["level"] as? String == "info")
        #expect(wire?["category"] as? String == "monitor" && wire?["message"] as? String == "day daily starts")
        let talking = AppRegistration(
            description: AppDescription(name: "talking", bundleIdentifier: nil, appGroup: nil, available: true, intents: [])
        ) { platform, _ in TalkingApp(platform: platform) }
        let saved = try JSONDecoder().decode(DeviceSnapshot.self, from: JSONEncoder().encode(try device.device.snapshot()))
        let restored = try SimulatedDevice(restoring: saved, catalog: AppCatalog([talking]))
        #expect(restored.traceEntries(since: nil, limit: nil, kinds: ["log"]).map(\.entry.payload) == logs.map(\.entry.payload))
    }
}
