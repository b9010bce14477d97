import ControlProtocol
import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// `UNNotificationRequest` with identifiers and triggers: pending until their time on the
/// device's clock (and through a snapshot), replaced by identifier, removable, refused as iOS
/// refuses them; the system holds them, so one added by an extension outlives its process.
@Suite struct NotificationRequestTests {
    struct Remind: IntentInput {
        var id: String
        var seconds: Double?
        var hour: Int?
        var repeats: Bool?
        func validate() throws(DeviceError) {}
    }

    struct RemindingMainApp: Sendable {
        let platform: Platform

        func remind(_ input: Remind) async throws -> [String] {
            let trigger: UNNotificationTrigger =
                input.hour.map { .calendar(dateMatching: DateComponents(hour: $0, minute: 0), repeats: input.repeats ?? false) }
                ?? .timeInterval(input.seconds ?? 0, repeats: input.repeats ?? false)
            try await platform.notificationCenter.add(
                UNNotificationRequest(
                    identifier: input.id, content: UNNotificationContent(title: "Break over", body: input.id), trigger: trigger))
            return try await platform.notificationCenter.pendingNotificationRequests().map(\.identifier)
        }

        func cancel(_ input: Remind) async throws -> [String] {
            try await platform.notificationCenter.removePendingNotificationRequests(withIdentifiers: [input.id])
            return try await platform.notificationCenter.pendingNotificationRequests().map(\.identifier)
        }
    }

    struct RemindingApp: SimulatedApp {
        let bundleIdentifier = "com.example.reminding"
        let appGroup = "group.com.example.reminding"
        let platform: Platform

        func launch() async throws { try await platform.notificationCenter.requestAuthorization() }

        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<RemindingMainApp>.named("remind", Remind.self) { app, input in try await app.remind(input) },
                    AppIntent<RemindingMainApp>.named("cancel", Remind.self) { app, input in try await app.cancel(input) },
                ],
                on: RemindingMainApp(platform: platform))
        }
    }

    private static let reminding = AppRegistration(
        description: AppDescription(name: "reminding", bundleIdentifier: nil, appGroup: nil, available: true, intents: [])
    ) { platform, _ in RemindingApp(platform: platform) }

    private func device() throws -> TestDevice {
        let device = try TestDevice(app: Self.reminding)
        device.exhaustivity = .kinds(["notification", "notification.scheduled", "notification.removed"])
        return device
    }

    @Test func aTimeIntervalRequestWaitsForItsTimeAndAnIdentifierIsReplaced() throws {
        let device = try device()
        try device.intent(
            "remind", ["id": "break", "seconds": 300],
            effects: [.notificationScheduled(identifier: "break", title: "Break over", due: "2026-01-05T09:05:00Z")])
        let pending = try device.intent(
            "remind", ["id": "break", "seconds": 600],
            effects: [.notificationScheduled(identifier: "break", title: "Break over", due: "2026-01-05T09:10:00Z")])
        #expect(pending == ["break"])
        try device.advance(minutes: 9)
        try device.advance(minutes: 1, effects: [.notification(title: "Break over", body: "break")])
        try device.advance(minutes: 60)
        #expect(try device.notifications().map(\.source) == ["reminding.app"])
    }

    @Test func aRemovedRequestIsNeverDelivered() throws {
        let device = try device()
        try device.intent("remind", ["id": "a", "seconds": 60], effects: [.notificationScheduled(identifier: "a", title: "Break over", due: "2026-01-05T09:01:00Z")])
        let left = try device.intent("cancel", ["id": "a"], effects: [.notificationRemoved(identifier: "a")])
        #expect(left == [])
        try device.advance(minutes: 5)
        #expect(try device.notifications().isEmpty)
    }

    @Test func aRepeatingCalendarRequestFiresEveryMatchInTheDevicesZone() throws {
        let device = try TestDevice(app: Self.reminding, timeZone: "Europe/Paris")
        device.exhaustivity = .kinds(["notification", "notification.scheduled"])
        try device.intent(
            "remind", ["id": "evening", "hour": 21, "repeats": true],
            effects: [.notificationScheduled(identifier: "evening", title: "Break over", due: "2026-01-05T20:00:00Z")])
        try device.advance(
            seconds: 86_400,
            effects: [
                .notification(title: "Break over", body: "evening"),
                .notificationScheduled(identifier: "evening", title: "Break over", due: "2026-01-06T20:00:00Z"),
            ])
    }

    @Test func triggersIOSRefusesAreRefused() throws {
        let device = try device()
        for args: JSONValue in [["id": "x", "seconds": 0], ["id": "x", "seconds": 30, "repeats": true], ["id": "x", "seconds": -5]] {
            #expect(throws: DeviceError.invalidArgument(field: "trigger", reason: "a time interval > 0 (≥ 60 s when repeating), or components some date matches")) {
                try device.intent("remind", args)
            }
        }
    }

    @Test func aPendingRequestSurvivesASnapshot() throws {
        let device = try device()
        try device.intent("remind", ["id": "later", "seconds": 3600], effects: [.notificationScheduled(identifier: "later", title: "Break over", due: "2026-01-05T10:00:00Z")])
        let saved = try JSONDecoder().decode(DeviceSnapshot.self, from: JSONEncoder().encode(try device.device.snapshot()))
        let restored = TestDevice(
            wrapping: try SimulatedDevice(restoring: saved, catalog: AppCatalog([Self.reminding])),
            exhaustivity: .kinds(["notification"]))
        try restored.advance(minutes: 60, effects: [.notification(title: "Break over", body: "later")])
    }
}
