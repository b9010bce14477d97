import ControlProtocol
import Testing

@testable import clarityctl

@Suite struct CommandLookupTests {
    private func lookupError(_ words: [String]) -> UsageError? {
        var arguments = Arguments(words)
        do {
            _ = try CommandRegistry.lookup(&arguments)
            return nil
        } catch {
            return error as? UsageError
        }
    }

    @Test func anUnknownCommandSuggestsTheNearestAndPointsAtTheOverview() {
        let error = lookupError(["stauts"])
        #expect(error?.message == "unknown command 'stauts'; did you mean 'status'?")
        #expect(error?.hint == "Run 'clarityctl --help' for usage.")
        #expect(lookupError(["devcie", "list"])?.message == "unknown command 'devcie'; did you mean 'device list'?")
        #expect(lookupError(["xyz"])?.message == "unknown command 'xyz'")
    }

    private func command(_ words: [String]) throws -> String? {
        var arguments = Arguments(words)
        guard case .command(let command)? = try CommandRegistry.lookup(&arguments) else { return nil }
        return command.help.name
    }

    /// The protocol's own method names work as commands, as two words or dotted.
    @Test func aMethodsNameNamesItsCommand() throws {
        #expect(try command(["clock", "now"]) == "now")
        #expect(try command(["clock.now"]) == "now")
        #expect(try command(["clock.advance", "60"]) == "advance")
        #expect(try command(["shields", "get"]) == "shields")
        #expect(try command(["shields"]) == "shields")
        #expect(try command(["trace", "export"]) == "trace export")
        #expect(try command(["trace.get"]) == "trace")
        #expect(try command(["device", "config"]) == "config")
        #expect(try command(["device", "list"]) == "device list")
        #expect(try command(["scenario.explore", "x.json"]) == "explore")
        #expect(lookupError(["clock", "nwo"])?.message == "unknown command 'clock nwo'; did you mean 'clock now'?")
        #expect(lookupError(["clock.nwo"])?.message == "unknown command 'clock nwo'; did you mean 'clock now'?")
        #expect(lookupError(["nope.now"])?.message == "unknown command 'nope now'")
    }

    @Test func anUnknownVerbSuggestsTheNearestOfItsGroupAndPointsAtTheGroup() {
        let error = lookupError(["store", "gte"])
        #expect(error?.message == "unknown command 'store gte'; did you mean 'store get'?")
        #expect(error?.hint == "Run 'clarityctl store --help' for usage.")
    }
}

@Suite struct CatalogHelpTests {
    private let catalog = DaemonCatalog(
        apps: [
            .init(
                name: "clarity", available: true,
                intents: [
                    .init(name: "selectApps", arguments: "apps=[bundle ids]"), .init(name: "focus.end", arguments: ""),
                ]),
            .init(name: "scrollkitty", available: false, intents: []),
            .init(name: "spendless", available: false, intents: []),
        ],
        events: ["lock", "unlock", "teleport"])

    @Test func intentsAreListedUnderTheirAppAndTheOtherAppsAreComing() {
        #expect(
            IntentRun.intentLines(.success(catalog)) == [
                "Intents of each app (daemon.catalog):",
                "  clarity",
                "    selectApps  apps=[bundle ids]",
                "    focus.end",
                "  coming: scrollkitty, spendless",
            ])
    }

    @Test func withoutADaemonTheIntentsPageSaysSoInOneLine() {
        let unreachable = IntentRun.intentLines(.failure(ClientError.cannotConnect(path: "/x.sock", errno: 2)))
        #expect(unreachable == ["(start clarityd to list each app's intents)"])
        let stopped = IntentRun.intentLines(.failure(ClientError.timedOut(seconds: 0.5)))
        #expect(stopped == ["(clarityd did not answer within 0.5 s to list its apps' intents)"])
    }

    @Test func deviceCreateNamesTheAppsOfTheCatalogOrElseNone() {
        #expect(
            DeviceCreate.help.details[0]
                == "  --app APP         an app the daemon runs (default: the daemon's defaultApp; listed here when clarityd answers)")
        let registered = catalog.apps + [.init(name: "dailylimit", available: true, intents: [])]
        #expect(
            DeviceCreate.appLine(
                available: registered.filter(\.available).map(\.name), coming: registered.filter { !$0.available }.map(\.name))
                == "  --app APP         clarity, dailylimit (default: the daemon's defaultApp); scrollkitty, spendless are coming")
    }

    @Test func eventTypesComeFromTheCatalogElseFromWhatThisBuildHandles() {
        #expect(EventSend.typeLines(.success(catalog)) == ["TYPE: lock, unlock, teleport"])
        let fallback = EventSend.typeLines(.failure(ClientError.closedByDaemon))
        #expect(fallback.first?.hasPrefix("TYPE: lock, unlock, device.reboot,") == true)
        #expect(fallback.joined().hasSuffix("web.open, web.close"), "what this build handles, no more")
        #expect(fallback.joined().contains("network.offline,"))
    }

    @Test func wrappedListsBreakBeforeTheWidthUnderTheFirstItem() {
        #expect(
            HelpText.wrapped(["alpha", "beta", "gamma"], after: "T: ", width: 16) == ["T: alpha, beta,", "   gamma"])
    }
}
