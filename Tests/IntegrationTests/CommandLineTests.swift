import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `clarityctl` as a user runs it against a real daemon: what it prints, where, and its exit status.
@Suite struct CommandLineTests {
    static let timeoutMessage =
        "clarityctl: clarityd did not answer within 0.5 s (is it stopped?); --timeout SECONDS waits longer, 0 waits forever\n"

    @Test func aStoppedDaemonTimesOutWithExitStatus3AndAnswersOnceContinued() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        daemon.kill(SIGSTOP)
        let stopped = Clarityctl.run(["--socket", daemon.socketPath, "--timeout", "0.5", "ping"], timeout: 30)
        let stoppedJSON = Clarityctl.run(["--socket", daemon.socketPath, "--timeout", "0.5", "--json", "ping"], timeout: 30)
        daemon.kill(SIGCONT)
        #expect(stopped.status == 3)
        #expect(stopped.stderr == Self.timeoutMessage)
        #expect(stopped.stdout == "")
        #expect(stoppedJSON.status == 3)
        #expect(
            stoppedJSON.stdout == """
                {"error":{"message":"clarityd did not answer within 0.5 s (is it stopped?); --timeout SECONDS \
                waits longer, 0 waits forever","unreachable":true}}

                """)
        #expect(stoppedJSON.stderr == "")

        let ping = daemon.runCtl(["--timeout", "0.5", "ping"])
        #expect(ping.status == 0, "stderr: \(ping.stderr)")
        #expect(ping.stdout == "version: \(ClarityProtocol.version)\npong:    true\n")
    }

    @Test(arguments: ["-1", "abc", "1e400", "0x10", ""])
    func aTimeoutThatIsNotSecondsIsAUsageError(value: String) {
        let result = Clarityctl.run(["--socket", "/nonexistent/x.sock", "--timeout", value, "ping"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("clarityctl: option --timeout must be a number of seconds (0 waits forever), got '\(value)'\n"))
    }
}

/// `clarityctl trace`: lines led by `seq`, the newest with `--last`, kinds with `--kind`.
@Suite struct CommandLineTraceTests {
    /// A daemon whose default device has run `selectApps`: trace events 1 to 11.
    private func daemonAfterSelectApps() throws -> DaemonProcess {
        let daemon = try DaemonProcess()
        let intent = daemon.runCtl(["intent", "selectApps", #"apps=["com.burbn.instagram"]"#])
        #expect(intent.status == 0, "stderr: \(intent.stderr)")
        return daemon
    }

    @Test func lastShowsTheNewestEventsEachLedByItsSeq() throws {
        let daemon = try daemonAfterSelectApps()
        defer { daemon.stop() }

        let last = daemon.runCtl(["trace", "--last", "2"])
        #expect(last.status == 0, "stderr: \(last.stderr)")
        #expect(
            last.stdout == """
                11  0  store.write          clarity.monitor  key=frictionLevel sandbox=monitor suite=group.com.clarity.focus value=0
                12  0  extension.terminate  clarity.monitor  sandbox=monitor

                """)
        #expect(daemon.runCtl(["trace", "--last", "0"]).stdout == "(none)\n")
    }

    @Test func repeatedKindsSelectKindsAndTheKindsUnderThem() throws {
        let daemon = try daemonAfterSelectApps()
        defer { daemon.stop() }

        let kinds = daemon.runCtl(["trace", "--kind", "monitor", "--kind", "extension.launch"])
        #expect(kinds.status == 0, "stderr: \(kinds.stderr)")
        #expect(
            kinds.stdout == """
                8  0  monitor.intervalStart  deviceActivity   activity=clarity_friction
                9  0  extension.launch       clarity.monitor  baselineBytes=2097152 sandbox=monitor

                """)
        let newestWrite = daemon.runCtl(["--json", "trace", "--kind", "store.", "--last", "1"])
        let written = try JSONWire.decode(JSONValue.self, from: Data(newestWrite.stdout.utf8))
        #expect(written.arrayValue?.compactMap { $0["seq"] } == [11])
    }

    @Test func limitZeroIsAcceptedAndBadCountsAreUsageErrors() throws {
        let daemon = try daemonAfterSelectApps()
        defer { daemon.stop() }

        let none = daemon.runCtl(["--json", "trace", "--limit", "0"])
        #expect(none.status == 0, "stderr: \(none.stderr)")
        #expect(none.stdout == "[]\n")

        let negative = daemon.runCtl(["trace", "--last", "-3"])
        #expect(negative.status == 2)
        #expect(negative.stderr == "clarityctl: --last must be a non-negative integer, got '-3'\nRun 'clarityctl trace --help' for usage.\n")
        let noKind = daemon.runCtl(["trace", "--kind"])
        #expect(noKind.status == 2)
        #expect(noKind.stderr.hasPrefix("clarityctl: option --kind needs a value\n"))
    }
}

/// `clarityctl activity list` fits a terminal: one line per activity.
@Suite struct CommandLineActivityTests {
    @Test func eachActivityIsOneLineWithItsIntervalAndEachEventsProgress() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let instagram = "com.burbn.instagram"
        for words in [
            ["intent", "selectApps", #"apps=["\#(instagram)"]"#], ["event", "app.open", "--app", instagram],
            ["advance", "2m"],
            [
                "activity", "start", "evening", "--schedule",
                #"{"intervalStart":{"hour":18},"intervalEnd":{"hour":22},"repeats":false}"#,
                "--events", #"{"social30":{"categories":["social"],"threshold":{"minute":30}}}"#,
            ],
        ] {
            let result = daemon.runCtl(words)
            #expect(result.status == 0, "\(words): \(result.stderr)")
        }

        let list = daemon.runCtl(["activity", "list"])
        #expect(list.status == 0, "stderr: \(list.stderr)")
        #expect(
            list.stdout == """
                name              phase    interval                                   repeats
                clarity_friction  active   2026-01-05T00:00:00Z–2026-01-05T23:59:59Z  true
                  friction_layer_1  120/300s
                  friction_layer_2  120/600s
                  friction_layer_3  120/900s
                  friction_layer_4  120/1200s
                  friction_layer_5  120/1500s
                evening           waiting  2026-01-05T18:00:00Z–2026-01-05T22:00:00Z  false
                  social30  0/1800s

                """)
    }
}

/// With `--json`, every kind of failure is a JSON object on stdout; the exit statuses stay.
@Suite struct CommandLineJSONErrorTests {
    @Test func aDaemonErrorIsTheErrorObjectOnStdout() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        let json = daemon.runCtl(["--json", "event", "shield.press", "--app", "com.burbn.instagram"])
        #expect(json.status == 1)
        #expect(
            json.stdout == """
                {"error":{"code":-32602,"data":{"field":"button","reason":"required"},\
                "message":"Invalid params: button: required"}}

                """)
        #expect(json.stderr == "")

        let text = daemon.runCtl(["event", "shield.press", "--app", "com.burbn.instagram"])
        #expect(text.status == 1)
        #expect(text.stdout == "")
        #expect(text.stderr == "error -32602: Invalid params: button: required\n  field: button\n  reason: required\n")
    }

    @Test func aUsageErrorIsFlaggedUsage() {
        let json = Clarityctl.run(["--socket", "/nonexistent/x.sock", "store", "get", "--json"])
        #expect(json.status == 2)
        #expect(json.stdout == #"{"error":{"message":"missing KEY","usage":true}}"# + "\n")
        #expect(json.stderr == "")

        let badOption = Clarityctl.run(["--json", "--timeout", "soon", "ping"])
        #expect(badOption.status == 2)
        #expect(badOption.stdout.hasPrefix(#"{"error":{"message":"option --timeout must be a number of seconds"#))
    }

    @Test func anUnreachableDaemonIsFlaggedUnreachable() {
        let json = Clarityctl.run(["--json", "--socket", "/nonexistent/x.sock", "ping"])
        #expect(json.status == 3)
        #expect(
            json.stdout == """
                {"error":{"message":"cannot connect to clarityd at /nonexistent/x.sock: No such file or directory \
                (is clarityd running?)","unreachable":true}}

                """)
        #expect(json.stderr == "")
    }
}

/// Help a user finds without reading the docs: the overview, each command's page, suggestions.
@Suite struct CommandLineHelpTests {
    @Test func bareClarityctlAndHelpPrintTheOverviewAndSucceed() {
        let overview = Clarityctl.run(["--help"])
        #expect(overview.status == 0)
        #expect(overview.stdout.hasPrefix("Usage: clarityctl [global options] COMMAND [arguments]\n"))
        for words in [[], ["help"]] {
            let result = Clarityctl.run(words)
            #expect(result.status == 0, "\(words): \(result.stderr)")
            #expect(result.stdout == overview.stdout, "\(words)")
        }
    }

    @Test func helpCommandPrintsThatCommandsPage() {
        let help = Clarityctl.run(["help", "store", "get"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: clarityctl store get KEY [--suite S]\n"))
        #expect(help.stdout == Clarityctl.run(["store", "get", "--help"]).stdout)
    }

    @Test func anUnknownCommandSuggestsTheNearest() {
        let status = Clarityctl.run(["stauts"])
        #expect(status.status == 2)
        #expect(status.stderr == "clarityctl: unknown command 'stauts'; did you mean 'status'?\nRun 'clarityctl --help' for usage.\n")
        let store = Clarityctl.run(["store", "gte", "key"])
        #expect(store.status == 2)
        #expect(store.stderr.hasPrefix("clarityctl: unknown command 'store gte'; did you mean 'store get'?\n"))
    }

    @Test func intentHelpListsEachAppsIntentsFromTheRunningDaemon() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        let help = daemon.runCtl(["intent", "--help"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Intents of each app (daemon.catalog):"))
        #expect(lines.contains("  clarity"))
        #expect(lines.contains("    selectApps            apps=[bundle ids] [categories=[names]]"))
        #expect(lines.contains("    challenge.open"))
        #expect(lines.contains("  makehay"))
        #expect(lines.contains("  thephone"))
        #expect(lines.contains("    setup.begin"))
        #expect(!lines.contains { $0.hasPrefix("  coming:") })
        #expect(daemon.runCtl(["help", "intent"]).stdout == help.stdout)
    }

    @Test func intentHelpWithoutADaemonSaysHowToListTheIntents() {
        let help = Clarityctl.run(["--socket", "/nonexistent/x.sock", "intent", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("\n(start clarityd to list each app's intents)\n"))
        #expect(help.stderr == "")
    }

    @Test func eventHelpListsTheEventTypesTheDaemonHandles() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let events = try #require(daemon.call("daemon.catalog")["events"]?.arrayValue).compactMap(\.stringValue)

        let help = daemon.runCtl(["event", "--help"])
        #expect(help.status == 0)
        let listed = help.stdout.split(separator: "\n").drop { !$0.hasPrefix("TYPE: ") }
            .prefix { $0.hasPrefix("TYPE: ") || $0.hasPrefix("      ") }
            .map { $0.dropFirst(6) }.joined(separator: " ")
        #expect(listed == events.joined(separator: ", "))
        #expect(!help.stdout.contains("--kind"))

        let kind = daemon.runCtl(["event", "lock", "--kind=steps"])
        #expect(kind.status == 2)
        #expect(kind.stderr.hasPrefix("clarityctl: unknown option '--kind'\n"))
    }

    /// clarityctl names no app: its help lists the apps the daemon answers it runs, in the order
    /// the daemon was given them, and without a daemon says what `--app` takes (issue 40).
    @Test func deviceCreateHelpOffersOnlyTheAppsThatRun() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(
            daemon.runCtl(["device", "create", "--help"]).stdout.contains(
                "  --app APP         clarity, scrollkitty, spendless, makehay, thephone (default: the daemon's defaultApp)\n"))
        let alone = Clarityctl.run(["--socket", "/nonexistent/x.sock", "device", "create", "--help"])
        #expect(alone.stdout.contains(
            "  --app APP         an app the daemon runs (default: the daemon's defaultApp; listed here when clarityd answers)\n"))
    }
}
