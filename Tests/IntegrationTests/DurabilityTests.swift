import ControlProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Acknowledged writes survive `kill -9`; a corrupt state file is moved aside, not wiped.
@Suite struct DurabilityTests {
    @Test func acknowledgedWritesSurviveKillNine() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "homeNetworkSSIDs", "value": ["Home", "Cabin"]])
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]])
        _ = try daemon.call("event", ["type": "app.open", "app": "com.burbn.instagram"])
        _ = try daemon.call("clock.advance", ["seconds": 600])
        _ = try daemon.call("device.create", ["device": "second", "seed": 3])
        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)

        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "homeNetworkSSIDs"])["value"] == ["Home", "Cabin"])
        #expect(try daemon.call("store.get", ["key": "frictionLevel"])["value"] == 2)
        #expect(try daemon.call("shields.get")["stores"]?["friction"]?["applications"] == ["com.burbn.instagram"])
        #expect(try daemon.call("clock.now")["t"] == 600)
        #expect(try daemon.call("device.list").arrayValue?.count == 2)
        #expect(try daemon.call("activity.list").arrayValue?.first?["name"] == "clarity_friction")
    }

    @Test func corruptStateFileIsMovedAsideAndReported() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("store.set", ["key": "k", "value": 1])
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let file = daemon.stateDirectory + "/devices/default.json"
        try Data("{ this is not json".utf8).write(to: URL(fileURLWithPath: file))

        try daemon.start()
        #expect(try daemon.call("store.get", ["key": "k"])["value"] == .null)
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
        #expect(files.contains { $0.hasPrefix("default.json.corrupt-") })
        #expect(daemon.log.contains("corrupt"))
    }
}
