import ControlProtocol
import Testing

@testable import clarityctl

/// The params commands send, for rules the daemon's answer alone cannot show.
@Suite struct CommandParamsTests {
    @Test func deviceCreateWithoutAppLeavesTheAppToTheDaemonsDefaultApp() throws {
        #expect(try parsedCommand(DeviceCreate.self, ["phone2"]).params == ["device": "phone2"])
        #expect(try parsedCommand(DeviceCreate.self, ["phone2", "--app", "clarity"]).params == ["device": "phone2", "app": "clarity"])
    }

    @Test func benchCreatesItsDeviceWithoutNamingAnApp() {
        #expect(BenchRun.deviceCreateParams(device: "bench-1") == ["device": "bench-1"])
    }
}
