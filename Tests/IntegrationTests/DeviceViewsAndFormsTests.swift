import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Several apps on one device as `clarityctl` shows them to a person: every installed app's
/// stores in `shields`, each app's state as nested lines in `device state`, and the platform in
/// `device create` and `device list`.
@Suite struct SeveralAppsHumanViewsTests {
    /// A device with ScrollKitty (primary) and SpendLess, each shielding one app.
    private func both() throws -> DaemonProcess {
        let daemon = try DaemonProcess()
        #expect(daemon.runCtl(["device", "create", "both", "--apps", "scrollkitty,spendless"]).status == 0)
        for (app, bundle) in [("scrollkitty", "com.burbn.instagram"), ("spendless", "com.amazon.Amazon")] {
            let intent = daemon.runCtl(["--device", "both", "intent", "selectApps", "apps=[\"\(bundle)\"]", "--app", app])
            #expect(intent.status == 0, "stderr: \(intent.stderr)")
        }
        return daemon
    }

    @Test func shieldsShowsEachInstalledAppsStores() throws {
        let daemon = try both()
        defer { daemon.stop() }
        let shields = daemon.runCtl(["--device", "both", "shields"])
        #expect(shields.status == 0, "stderr: \(shields.stderr)")
        #expect(
            shields.stdout == """
                app          store        applications                            categories  applicationCategories
                -            (effective)  com.amazon.Amazon, com.burbn.instagram  (none)      -
                scrollkitty  scrollkitty  com.burbn.instagram                     -           {"policy":"none"}
                spendless    shopping     com.amazon.Amazon                       -           {"policy":"none"}

                """)
        let json = daemon.runCtl(["--device", "both", "--json", "shields"])
        #expect(try JSONWire.decode(JSONValue.self, from: Data(json.stdout.utf8)) == daemon.call("shields.get", ["device": "both"]))
    }

    @Test func deviceStateShowsEachAppsStateAsNestedLines() throws {
        let daemon = try both()
        defer { daemon.stop() }
        let state = daemon.runCtl(["--device", "both", "device", "state"])
        #expect(state.status == 0, "stderr: \(state.stderr)")
        let lines = state.stdout.split(separator: "\n").map(String.init)
        let shown = Comment(rawValue: state.stdout)
        let apps = try #require(lines.firstIndex(of: "apps:"), shown)
        let shop = try #require(lines.firstIndex(of: "  spendless (com.spendless.app, group.com.spendless.data):"), shown)
        #expect(lines[apps + 1].hasPrefix("  scrollkitty (primary; com.scrollkitty.app, "), shown)
        #expect(lines[(apps + 1)..<shop].contains { $0.hasPrefix("    totalHP:") && $0.hasSuffix(" 100") }, shown)
        #expect(lines[shop...].contains { $0.hasPrefix("    selectedApps:") && $0.hasSuffix(" com.amazon.Amazon") }, shown)
        #expect(!state.stdout.contains("\"selectedApps\""), "no app's state is a cell of JSON: \(state.stdout)")
    }

    @Test func deviceCreateAndListShowThePlatform() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let create = daemon.runCtl(["device", "create", "bob", "--app", "thephone", "--platform", "android"])
        #expect(create.status == 0, "stderr: \(create.stderr)")
        #expect(create.stdout.split(separator: "\n").contains("platform: android"), "\(create.stdout)")
        let list = daemon.runCtl(["device", "list"])
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
            "name app platform", "bob thephone android", "default clarity ios",
        ])
        #expect(try daemon.call("device.list").arrayValue?.map { $0["platform"] } == ["android", "ios"])
    }
}

/// The contract's own spellings: `config.app.backend` beside `config.backend`, and `backend.*`
/// given a device reading the backend that device talks to.
@Suite struct BackendFormsTests {
    /// The field and reason of a refused call; nil when it went through.
    private func refusal(_ body: () throws -> JSONValue) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return "\(error.data?["field"]?.stringValue ?? "-"): \(error.data?["reason"]?.stringValue ?? error.message)"
        } catch {
            return "\(error)"
        }
    }

    /// Device `p` of The Phone on backend `x` (`config` names it), with one unlock recorded and synced.
    private func phoneOnX(_ daemon: DaemonProcess, config: JSONValue) throws {
        _ = try daemon.call("device.create", ["device": "p", "app": "thephone", "config": config])
        _ = try daemon.call("intent", ["device": "p", "name": "installAutomation", "args": [:]])
        _ = try daemon.call("event", ["device": "p", "type": "lock"])
        _ = try daemon.call("event", ["device": "p", "type": "unlock"])
    }

    @Test func theAppsSpellingOfTheBackendNamesTheBackend() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try phoneOnX(daemon, config: ["app": ["backend": "x"]])
        let config = try daemon.call("device.config", ["device": "p"])
        #expect(config["app"]?["backend"] == "x")
        #expect(config["backend"] == nil, "echoed as given, in its one place (no default beside it)")
        #expect(try daemon.call("backend.users", ["backend": "x"]).arrayValue?.map { $0["username"] } == ["p"])
        #expect(try daemon.call("backend.list").arrayValue?.map { $0["backend"] } == ["x"], "none made of default")
        _ = try daemon.call("device.create", ["device": "same", "app": "thephone", "config": ["backend": "y", "app": ["backend": "y"]]])
        #expect(try daemon.call("device.config", ["device": "same"])["backend"] == "y")
        #expect(try daemon.call("device.config", ["device": "p", "config": ["app": ["backend": "x"]]])["app"]?["backend"] == "x")
        #expect(
            refusal { try daemon.call("device.config", ["device": "p", "config": ["app": ["backend": "y"]]]) }
                == "config.app.backend: fixed when the device is created: give it in device.create's config")

        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try daemon.call("device.config", ["device": "p"])["app"]?["backend"] == "x", "as journalled")
        #expect(try daemon.call("backend.events", ["device": "p"]).arrayValue?.isEmpty == false)
    }

    /// The instance is The Phone's own setting (issue 40): `config.app.backend` wins over its
    /// top-level spelling, as every app setting does; a bad one is refused, named as given.
    @Test func badSpellingsAreRefusedNamingTheFieldAndTheAppsWins() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        func create(_ name: String, app: String = "thephone", _ config: JSONValue) -> String? {
            refusal { try daemon.call("device.create", ["device": .string(name), "app": .string(app), "config": config]) }
        }
        #expect(create("a", ["backend": "y", "app": ["backend": "x"]]) == nil, "made, on x")
        #expect(create("b", ["app": ["backend": 7]]) == "config.app.backend: expected a string")
        #expect(create("c", ["app": ["backend": ".x"]]) == "config.app.backend: 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        #expect(create("d", ["app": ["backend": "fresh", "bogus": 1]]) == "config.app.bogus: unknown setting (known: backend)")
        #expect(
            create("e", app: "clarity", ["app": ["backend": "x"]])
                == "config.app.backend: unknown setting (known: frictionThresholdsMinutes, verificationNamesChallenge)")
        #expect(create("f", app: "makehay", ["app": ["bogus": 1]]) == "config.app.bogus: unknown setting: makehay takes no settings")
        #expect(try daemon.call("device.list").arrayValue?.count == 2, "nothing else was made")
        #expect(try daemon.call("backend.list").arrayValue?.map { $0["backend"] } == ["x"], "nor any other backend")
    }

    @Test func backendMethodsGivenADeviceReadItsBackend() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try phoneOnX(daemon, config: ["backend": "x"])
        let events = try daemon.call("backend.events", ["device": "p"])
        #expect(events.arrayValue?.map { $0["eventType"] } == ["unlock"], "\(events)")
        #expect(try daemon.call("backend.events", ["device": "p", "backend": "x"]) == events)
        #expect(try daemon.call("backend.events", ["user": "p", "backend": "x"]) == events)
        #expect(try daemon.call("backend.scores", ["device": "p"]).arrayValue != nil)
        _ = try daemon.call("device.create", ["device": "q", "app": "thephone"])
        #expect(
            refusal { try daemon.call("backend.events", ["device": "p", "backend": "default"]) }
                == "device: no user is signed in on device p on backend default (device p talks to backend x)")
        let ctl = daemon.runCtl(["--device", "p", "--json", "backend", "events"])
        #expect(try JSONWire.decode(JSONValue.self, from: Data(ctl.stdout.utf8)) == events, "stderr: \(ctl.stderr)")
    }
}
