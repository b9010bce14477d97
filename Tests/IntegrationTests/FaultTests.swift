import ControlProtocol
import DaemonTestSupport
import Testing

/// Faults as choices (docs/scenarios.md, Faults): a scenario lists the faults its exploration may
/// inject; a schedule meets them seeded by its own seed, a failure names the ones it needs in its
/// token, and the token replays them.
@Suite struct FaultTests {
    /// Friction reaches layer 2 at ten minutes of Instagram: the monitor writes `frictionLevel` 2.
    private func frictionScenario(faults: [JSONValue], advance: Int = 660) -> JSONValue {
        [
            "name": "friction-reaches-layer-two", "faults": .array(faults),
            "steps": [
                ["intent": ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]]],
                ["event": ["type": "app.open", "app": "com.burbn.instagram"]],
                ["advance": .int(advance)],
                ["expect": ["store": ["key": "frictionLevel", "equals": 2]]],
            ],
        ]
    }

    /// The monitor's callbacks are delivery sites 0 (`intervalDidStart`), 1 (five minutes) and 2
    /// (ten): delaying site 2 makes layer 2 a minute late, so it is not there at 10:00 but is at 11:00.
    @Test func aDelayedCallbackArrivesAMinuteLate() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for (advance, passes) in [(600, false), (660, true)] {
            let scenario = frictionScenario(faults: ["callbackDelayed"], advance: advance)
            let own = try #require(daemon.call("scenario.run", ["scenario": scenario])["token"]?.stringValue)
            let hash = own.split(separator: ":")[1]
            // The non-preemptive schedule (no deviation) meeting one fault.
            let token = "v2:\(hash)::callbackDelayed@2"
            let replay = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": .string(token)])
            #expect(replay["passed"] == .bool(passes), "advance \(advance): \(replay["failures"] ?? [])")
            #expect(replay["divergence"] == nil)
            let trace = try #require(replay["trace"]?.arrayValue)
            let fault = try #require(trace.first { $0["kind"] == "fault" })
            #expect(fault["fault"] == "callbackDelayed" && fault["at"] == "eventDidReachThreshold" && fault["t"] == 600)
            let thresholds = trace.filter { $0["kind"] == "extension.callback" && $0["callback"] == "eventDidReachThreshold" }
            #expect(thresholds.map { $0["t"] } == (passes ? [300, 660] : [300]))
        }
    }

    @Test func anInjectedFaultFailsASchedulesAndItsTokenReplaysIt() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = frictionScenario(faults: ["jetsam", "callbackDropped"])
        let report = try daemon.call("scenario.explore", ["scenario": scenario, "schedules": 300])
        let failure = try #require(report["failures"]?.arrayValue?.first, "\(report)")
        #expect(failure["step"] == "steps[3]")
        let faults = try #require(failure["faults"]?.arrayValue?.compactMap { $0.stringValue })
        #expect(!faults.isEmpty, "\(failure)")
        let token = try #require(failure["schedule"]?.stringValue)
        #expect(token.hasSuffix(":" + faults.joined(separator: ",")))
        #expect(failure["story"]?.arrayValue?.contains { $0.stringValue?.contains("FAULT") == true } == true)

        let replay = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": .string(token)])
        #expect(replay["failures"]?.arrayValue?.first?["step"] == "steps[3]")
        #expect(replay["token"] == .string(token), "the replay meets the same faults")
        #expect(failure["plausibility"] == "needs a fault")
        #expect(replay["plausibility"] == "needs a fault", "a replay says how likely its schedule is, as the exploration did")
        #expect(replay["divergence"] == nil)
        let beyond = token.replacingOccurrences(of: faults.last!, with: "jetsam@100000")
        let unmet = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": .string(beyond)])
        #expect(unmet["divergence"]?.stringValue?.contains("before fault site jetsam@100000") == true, "\(unmet)")
        let trace = try #require(replay["trace"]?.arrayValue)
        let injected = trace.filter { $0["kind"] == "fault" }
        #expect(injected.count == faults.count)
        for event in injected {
            #expect(["jetsam", "callbackDropped"].contains(event["fault"]?.stringValue ?? ""))
            #expect(event["at"]?.stringValue?.isEmpty == false)
            if event["fault"] == "jetsam" {
                let next = trace.first { ($0["seq"]?.intValue ?? 0) > (event["seq"]?.intValue ?? 0) }
                #expect(next?["kind"] == "extension.jetsam", "the fault kills the extension at once")
            }
        }
    }

    /// Site 0 is the monitor's first platform call (`intervalDidStart`, started by `selectApps`):
    /// the device reboots there, so it is locked when the user tries to open Instagram.
    @Test func aRebootInTheMiddleOfACallbackCutsItAndLocksTheDevice() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let scenario = frictionScenario(faults: ["reboot"])
        let own = try #require(daemon.call("scenario.run", ["scenario": scenario])["token"]?.stringValue)
        let token = "v2:\(own.split(separator: ":")[1])::reboot@0"
        let replay = try daemon.call("scenario.replay", ["scenario": scenario, "schedule": .string(token)])
        let failure = try #require(replay["failures"]?.arrayValue?.first, "\(replay)")
        #expect(failure["step"] == "steps[1]", "app.open on a locked device: \(failure)")
        let trace = try #require(replay["trace"]?.arrayValue)
        let kinds = trace.map { $0["kind"]?.stringValue ?? "" }
        let fault = try #require(kinds.firstIndex(of: "fault"))
        #expect(trace[fault]["fault"] == "reboot" && trace[fault]["actor"] == "clarity.monitor")
        #expect(kinds[fault...].contains("device.reboot"))
        #expect(!kinds[fault...].contains("store.write"), "the cut callback wrote nothing more")
        #expect(replay["divergence"] == nil)
    }

    @Test func withoutFaultsEveryScheduleReachesLayerTwo() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let report = try daemon.call("scenario.explore", ["scenario": frictionScenario(faults: []), "schedules": 300])
        #expect(report["failed"] == 0 && report["schedules"] == 300, "\(report)")
        let fifo = try daemon.call("scenario.run", ["scenario": frictionScenario(faults: ["jetsam", "callbackDropped"])])
        #expect(fifo["passed"] == true, "the scenario's own schedule meets no fault")
    }
}
