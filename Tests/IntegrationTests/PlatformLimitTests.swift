import ControlProtocol
import DaemonTestSupport
import Testing

/// DeviceActivity's MonitoringError cases and extension jetsam, over the socket.
@Suite struct PlatformLimitTests {
    private func refusal(_ body: () throws -> JSONValue) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return error.code == -32003 ? error.data?["reason"]?.stringValue : "code \(error.code)"
        } catch {
            return "\(error)"
        }
    }

    private static let daily: JSONValue = [
        "intervalStart": ["hour": 0, "minute": 0], "intervalEnd": ["hour": 23, "minute": 59], "repeats": true,
    ]

    @Test func monitoringErrorsAreReportedByName() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let short: JSONValue = ["intervalStart": ["hour": 10, "minute": 0], "intervalEnd": ["hour": 10, "minute": 10], "repeats": true]
        #expect(refusal { try daemon.call("activity.start", ["name": "short", "schedule": short]) } == "intervalTooShort")
        let long: JSONValue = [
            "intervalStart": ["year": 2026, "month": 2, "day": 1, "hour": 0],
            "intervalEnd": ["year": 2026, "month": 2, "day": 10, "hour": 0], "repeats": false,
        ]
        #expect(refusal { try daemon.call("activity.start", ["name": "long", "schedule": long]) } == "intervalTooLong")
        let past: JSONValue = [
            "intervalStart": ["year": 2020, "month": 1, "day": 1, "hour": 9],
            "intervalEnd": ["year": 2020, "month": 1, "day": 1, "hour": 10], "repeats": false,
        ]
        #expect(refusal { try daemon.call("activity.start", ["name": "past", "schedule": past]) } == "invalidDateComponents")
        for index in 0..<20 {
            _ = try daemon.call("activity.start", ["name": .string("a\(index)"), "schedule": Self.daily])
        }
        #expect(refusal { try daemon.call("activity.start", ["name": "a20", "schedule": Self.daily]) } == "excessiveActivities")
        #expect(try daemon.call("activity.list").arrayValue?.count == 20)

        _ = try daemon.call("device.create", ["device": "noauth", "config": ["familyControlsAuthorized": false]])
        #expect(
            refusal { try daemon.call("activity.start", ["device": "noauth", "name": "x", "schedule": Self.daily]) }
                == "unauthorized")
    }

    @Test func aLargeAppGroupValueJetsamsTheShieldExtensionAndTheSystemShieldShows() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let device: JSONValue = "tight"
        _ = try daemon.call(
            "device.create",
            ["device": device, "config": ["memoryBudgets": ["shieldConfiguration": 2_500_000], "baselineBytes": 2_097_152]])
        _ = try daemon.call("intent", ["device": device, "name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call(
            "store.set", ["device": device, "key": "prosocialContactName", "value": .string(String(repeating: "A", count: 600_000))])
        _ = try daemon.call("event", ["device": device, "type": "app.open", "app": "com.burbn.instagram"])
        let advanced = try daemon.call("clock.advance", ["device": device, "seconds": 600])
        let effects = advanced["effects"]?.arrayValue ?? []
        #expect(effects.contains { $0["kind"] == "extension.jetsam" && $0["sandbox"] == "shieldConfiguration" })
        let shown = effects.first { $0["kind"] == "shield.shown" }
        #expect(shown?["source"] == "systemDefault")
        #expect(shown?["title"] == "Restricted")
        #expect(shown?["secondaryButtonLabel"] == .null)

        let sandboxes = try daemon.call("sandbox.list", ["device": device]).arrayValue ?? []
        let shieldConfiguration = sandboxes.first { $0["extension"] == "shieldConfiguration" }
        #expect(shieldConfiguration?["jetsams"] == 1)
        #expect(shieldConfiguration?["state"] == "notRunning")
        // Writes the monitor made before are kept; the store still holds the friction shield.
        #expect(try daemon.call("store.get", ["device": device, "key": "frictionLevel"])["value"] == 2)
        let config = try daemon.call("shield.config", ["device": device, "app": "com.burbn.instagram"])
        #expect(config["source"] == "systemDefault")
        #expect(try daemon.call("sandbox.list", ["device": device]).arrayValue?.first { $0["extension"] == "shieldConfiguration" }?["launches"] == 2)
    }
}
