import SimulatediOS
import Testing
import ThePhoneBackend

@testable import ClarityDaemon

/// A daemon refuses at its start servers it cannot host side by side (docs/sdk.md, "Your app's own
/// server"), naming the apps and the clash, instead of trapping on a route given twice or two
/// servers writing one directory.
@Suite struct ServerConflictTests {
    private static func app(_ name: String, _ server: ServerRegistration) -> AppRegistration {
        AppRegistration(
            description: AppDescription(name: name, bundleIdentifier: nil, appGroup: nil, available: true, intents: []), server: server
        ) { _, _ in preconditionFailure("a conflict check makes no app") }
    }

    @Test func theBuiltInAppsConflictWithNothing() {
        #expect(ServerMethods.conflict(among: [Self.app("a", .thePhoneBackend), Self.app("b", .thePhoneBackend)]) == nil)
    }

    @Test func aPrefixThatIsAProtocolNamespaceIsRefused() {
        let server = ServerRegistration(PhoneBackend.self, name: "shadow", methodPrefix: "device")
        #expect(ServerMethods.conflict(among: [Self.app("a", server)]) == "server shadow (app a) names its methods device.*, as the protocol's device.create does")
    }

    @Test func twoServersOfOneNameOrOnePrefixOrOneDirectoryAreRefused() {
        let other = ServerRegistration(PhoneBackend.self, name: "thephone", methodPrefix: "phone")
        #expect(ServerMethods.conflict(among: [Self.app("a", .thePhoneBackend), Self.app("b", other)])
            == "apps a and b bring two different servers named thephone")
        let prefix = ServerRegistration(PhoneBackend.self, name: "copy", methodPrefix: "backend")
        #expect(ServerMethods.conflict(among: [Self.app("a", .thePhoneBackend), Self.app("b", prefix)])
            == "server copy (app b) names its methods backend.*, as server thephone does")
        let directory = ServerRegistration(PhoneBackend.self, name: "copy", stateDirectory: "backends")
        #expect(ServerMethods.conflict(among: [Self.app("a", .thePhoneBackend), Self.app("b", directory)])
            == "server copy (app b) keeps its instances in backends, as server thephone does")
        let devices = ServerRegistration(PhoneBackend.self, name: "copy", stateDirectory: "devices/x")
        #expect(ServerMethods.conflict(among: [Self.app("b", devices)])
            == "server copy (app b) keeps its instances in devices/x, as the daemon's devices does")
    }
}
