import ControlProtocol
import Testing

@testable import clarityctl

/// The params commands send, for rules the daemon's answer alone cannot show.
@Suite struct CommandParamsTests {
    private func parsed<Command: ClarityCommand>(_ type: Command.Type, _ words: [String]) throws -> Command {
        var arguments = Arguments(words)
        let options = try GlobalOptions.extract(from: &arguments, environment: [:])
        let command = try Command(arguments: &arguments, options: options)
        try arguments.finish()
        return command
    }

    @Test func deviceCreateWithoutAppLeavesTheAppToTheDaemonsDefaultApp() throws {
        #expect(try parsed(DeviceCreate.self, ["phone2"]).params == ["device": "phone2"])
        #expect(try parsed(DeviceCreate.self, ["phone2", "--app", "clarity"]).params == ["device": "phone2", "app": "clarity"])
    }

    @Test func benchCreatesItsDeviceWithoutNamingAnApp() {
        #expect(BenchRun.deviceCreateParams(device: "bench-1") == ["device": "bench-1"])
    }
}
