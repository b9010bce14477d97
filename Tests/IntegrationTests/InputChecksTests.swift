import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// What issue 38's prober got through the daemon's inputs (item 12): web domains kept as iOS
/// keeps them at every way in, errors that name the field and its values instead of Swift's
/// words, members that contradict each other refused, and one calendar for every date shown.
@Suite struct InputChecksTests {
    /// A website is one whatever its case, at every way in: an activity's event for
    /// `REDDIT.com` counts time in `web.open domain=Reddit.com` and in `app.open
    /// app=web:reddit.com`; what is no domain is refused naming the field.
    @Test func aWebsiteIsOneDomainAtEveryWayInAndWhatIsNoDomainIsRefused() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let allDay: JSONValue = ["intervalStart": ["hour": 0], "intervalEnd": ["hour": 23, "minute": 59], "repeats": true]
        _ = try daemon.call(
            "activity.start",
            ["name": "web", "schedule": allDay, "events": ["reading": ["webDomains": ["REDDIT.com"], "threshold": ["minute": 1]]]])
        let opened = try daemon.call("event", ["type": "web.open", "domain": "Reddit.com"])
        #expect(opened["effects"]?.arrayValue?.first?["foregroundApp"] == "web:reddit.com")
        let advanced = try daemon.call("clock.advance", ["seconds": 120])
        #expect(advanced["effects"]?.arrayValue?.contains { $0["kind"] == "monitor.threshold" && $0["event"] == "reading" } == true)
        let closed = try daemon.call("event", ["type": "app.close", "app": "web:REDDIT.com"])
        #expect(closed["effects"]?.arrayValue?.first?["foregroundApp"] == .null, "web:REDDIT.com is the website in front")

        for domain in ["reddit.com\u{0}x", "\u{202E}reddit.com", "reddit..com", ".reddit.com", "reddit.com.", "a b/c", ""] {
            #expect(errorField { try daemon.call("event", ["type": "web.open", "domain": .string(domain)]) } == "domain", "\(domain.debugDescription)")
        }
        for app in ["web:a b/c", "web:", "web:reddit..com"] {
            #expect(errorField { try daemon.call("event", ["type": "app.open", "app": .string(app)]) } == "app", "\(app)")
        }
        #expect(errorField { try daemon.call("shield.config", ["app": "web:\u{202E}moc.tidder"]) } == "app")
        let badEvent: JSONValue = ["webDomains": ["reddit..com"], "threshold": ["minute": 1]]
        #expect(
            errorField { try daemon.call("activity.start", ["name": "bad", "schedule": allDay, "events": ["e": badEvent]]) }
                == "events.e.webDomains")
    }

    /// A name a string enum does not take is refused naming the field and the values it takes,
    /// not in Swift's words ("Cannot initialize StrategyKind from invalid String value DFS").
    @Test func anUnknownNameListsTheValuesNotSwiftsWords() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let strategy = daemon.error(calling: "scenario.explore", ["scenario": [:], "strategy": "DFS"])
        #expect(strategy?.data?["field"] == "strategy")
        #expect(strategy?.data?["reason"] == "one of fifo, random, pct, dfs", "\(String(describing: strategy))")
        _ = try daemon.call("device.create", ["device": "p", "app": "thephone"])
        let eventType = daemon.error(
            calling: "backend.sync",
            ["user": "p", "events": [["id": .string(UUID().uuidString), "eventType": "LOCK", "timestamp": 0, "source": "manual"]]])
        #expect(eventType?.data?["field"] == "events[0].eventType")
        #expect(eventType?.data?["reason"] == "one of lock, unlock", "\(String(describing: eventType))")
    }

    /// An empty app name is refused as such, naming the field and the apps (it was "Unknown
    /// app:  (known …)"); members that contradict each other are refused, not one taken silently.
    @Test func emptyNamesAndContradictingMembersAreRefused() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let empty = daemon.error(calling: "device.create", ["device": "x", "apps": [""]])
        #expect(empty?.code == -32602 && empty?.data?["field"] == "apps[0]", "\(String(describing: empty))")
        #expect(empty?.message.contains("one of clarity, scrollkitty") == true)
        #expect(errorField { try daemon.call("device.create", ["device": "x", "app": ""]) } == "app")
        #expect(
            errorField { try daemon.call("device.create", ["device": "x", "app": "thephone", "platform": "android", "config": ["platform": "ios"]]) }
                == "platform")
        _ = try daemon.call("device.create", ["device": "y", "app": "thephone", "platform": "android", "config": ["platform": "android"]])

        _ = try daemon.call("device.create", ["device": "p", "app": "thephone"])
        #expect(errorField { try daemon.call("backend.events", ["user": "p", "device": "y"]) } == "device")
        let magic: JSONValue = ["id": .string(UUID().uuidString), "eventType": "lock", "timestamp": 0, "source": "magic"]
        let source = daemon.error(calling: "backend.sync", ["user": "p", "events": [magic]])
        #expect(source?.data?["field"] == "events[0].source")
        #expect(source?.data?["reason"] == "one of shortcut, manual, install, verification, automatic")
        #expect(try daemon.call("backend.events", ["user": "p"]).arrayValue?.isEmpty == true, "nothing stored")
    }

    /// The backend and the device show one date for one instant, before 1582 too: the proleptic
    /// Gregorian calendar both write (the backend's Foundation calendar was Julian there,
    /// 1000-01-01 shown as 0999-12-27).
    @Test func theBackendAndTheDeviceShowOneDateBefore1582() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "p", "app": "thephone", "start": "1000-01-01T00:00:00Z"])
        #expect(try daemon.call("clock.now", ["device": "p"])["time"] == "1000-01-01T00:00:00Z")
        #expect(try daemon.call("backend.now")["time"] == "1000-01-01T00:00:00.000Z")
    }
}
