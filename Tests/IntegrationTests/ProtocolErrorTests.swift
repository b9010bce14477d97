import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Every protocol error code a client can provoke, and the daemon serving on afterwards.
@Suite struct ProtocolErrorTests {
    private func errorCode(_ line: String?) -> Int? {
        guard let line, let value = try? JSONWire.decode(JSONValue.self, from: Data(line.utf8)) else { return nil }
        return value["error"]?["code"]?.intValue
    }

    private func code(of body: () throws -> JSONValue) -> Int? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func eachErrorCodeIsReturnedAndTheDaemonKeepsServing() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        #expect(errorCode(daemon.sendRaw(line: "{not json")) == -32700)
        #expect(errorCode(daemon.sendRaw(line: #"{"jsonrpc":"1.0","id":1,"method":"daemon.ping"}"#)) == -32600)
        #expect(errorCode(daemon.sendRaw(line: "[]")) == -32600)
        #expect(code { try daemon.call("no.such.method") } == -32601)
        #expect(code { try daemon.call("clock.advance", ["seconds": "ten"]) } == -32602)
        #expect(code { try daemon.call("clock.advance", ["seconds": -5]) } == -32602)
        #expect(code { try daemon.call("device.state", ["device": "ghost"]) } == -32000)
        #expect(code { try daemon.call("device.create", ["device": "default"]) } == -32001)
        #expect(code { try daemon.call("device.create", ["device": "x", "app": "angrybirds"]) } == -32002)
        #expect(code { try daemon.call("event", ["type": "teleport"]) } == -32002)
        #expect(code { try daemon.call("intent", ["name": "launchRocket"]) } == -32002)
        #expect(code { try daemon.call("event", ["type": "call.connect"]) } == -32003)
        #expect(try daemon.call("daemon.ping")["pong"] == true)
    }

    @Test func invalidParamsNameTheField() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        do {
            _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": ["com.a", 5]]])
            Issue.record("expected -32602")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["field"] == "args.apps[1]")
        }
        do {
            _ = try daemon.call("event", ["type": "shield.press", "app": "com.a", "button": "middle"])
            Issue.record("expected -32602")
        } catch let error as RPCError {
            #expect(error.data?["field"] == "button")
        }
        for taps: JSONValue in [0, 11, -1, "two", 1.5] {
            do {
                _ = try daemon.call("event", ["type": "shield.press", "app": "com.a", "button": "primary", "taps": taps])
                Issue.record("expected -32602 for taps \(taps)")
            } catch let error as RPCError {
                #expect(error.code == -32602 && error.data?["field"] == "taps", "\(taps): \(error)")
            }
        }
    }

    private func invalidField(_ body: () throws -> JSONValue) -> String? {
        do {
            _ = try body()
            return "succeeded"
        } catch let error as RPCError {
            guard error.code == -32602 else { return "code \(error.code)" }
            return "\(error.data?["field"]?.stringValue ?? "?"): \(error.data?["reason"]?.stringValue ?? "?")"
        } catch {
            return "\(error)"
        }
    }

    /// A misspelt or extra field is refused by name, in every method, event and intent, and
    /// nothing happens: a typo never passes for a setting.
    @Test func unknownFieldsAreRefusedByNameAndChangeNothing() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let trace = try daemon.call("trace.get").arrayValue?.count
        #expect(
            invalidField { try daemon.call("intent", ["name": "setWiFiGate", "args": ["enable": true]]) }
                == "args.enable: unknown; did you mean enabled?")
        #expect(
            invalidField { try daemon.call("intent", ["name": "challenge.skip", "args": ["now": true]]) }
                == "args.now: unknown; this object takes no other fields")
        #expect(
            invalidField { try daemon.call("intent", ["name": "logMood", "args": ["mood": 3, "note": "x"]]) }
                == "args.note: unknown; expected one of mood")
        #expect(
            invalidField { try daemon.call("device.config", ["config": ["baselinebytes": 1]]) }
                == "config.baselinebytes: unknown; did you mean baselineBytes?")
        #expect(
            invalidField { try daemon.call("device.create", ["device": "x", "config": ["quirks": ["batchedThreshold": true]]]) }
                == "config.quirks.batchedThreshold: unknown quirk (known: batchedThresholds, emptyDefaultsBeforeFirstUnlock, lateDefaultsPropagation, thresholdFiresOnStart, unstableTokens)")
        #expect(invalidField { try daemon.call("event", ["type": "lock", "app": "com.x"]) } == "app: unknown; expected one of device, type")
        #expect(invalidField { try daemon.call("store.get", ["key": "k", "suit": "s"]) } == "suit: unknown; did you mean suite?")
        #expect(invalidField { try daemon.call("clock.advance", ["seconds": 1, "secs": 2]) } == "secs: unknown; expected one of device, seconds")
        #expect(invalidField { try daemon.call("daemon.ping", ["verbose": true]) } == "verbose: unknown; this object takes no other fields")
        #expect(try daemon.call("store.get", ["key": "wifiGateEnabled"])["value"] == .null)
        #expect(try daemon.call("trace.get").arrayValue?.count == trace, "nothing ran")
        #expect(try daemon.call("device.list").arrayValue?.count == 1)
    }

    /// `daemon.catalog` tells clients which apps run and what each one's intents take.
    @Test func theCatalogListsAppsIntentsAndEvents() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let catalog = try daemon.call("daemon.catalog")
        let apps = catalog["apps"]?.arrayValue ?? []
        #expect(apps.map { $0["name"] } == ["clarity", "scrollkitty", "spendless", "makehay", "thephone"])
        #expect(apps.first?["bundleIdentifier"] == "com.clarity.focus")
        #expect(apps.dropFirst().first?["bundleIdentifier"] == "com.scrollkitty.app")
        #expect(apps.dropFirst().first?["available"] == true)
        #expect(apps.dropFirst(2).first?["bundleIdentifier"] == "com.spendless.app")
        #expect(apps.dropFirst(2).first?["available"] == true)
        #expect(apps.dropFirst(3).first?["bundleIdentifier"] == "com.makehay.app")
        #expect(apps.dropFirst(3).first?["available"] == true)
        #expect(apps.dropFirst(4).first?["bundleIdentifier"] == "com.thephone.app")
        #expect(apps.dropFirst(4).first?["available"] == true)
        #expect(apps.dropFirst(4).first?["intents"]?.arrayValue?.first == ["name": "installAutomation", "arguments": "[trigger=unlock|lock] [askBeforeRunning=true|false]"])
        let intents = apps.first?["intents"]?.arrayValue ?? []
        #expect(intents.first == ["name": "selectApps", "arguments": "apps=[bundle ids] [categories=[names]]"])
        #expect(intents.contains(["name": "challenge.skip", "arguments": ""]))
        #expect(catalog["events"]?.arrayValue?.contains("shield.press") == true)
        #expect(catalog["events"]?.arrayValue?.contains("health.sample") == true)
    }

    @Test func anUnknownIntentListsTheAppsIntents() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        do {
            _ = try daemon.call("intent", ["name": "setWifiGate"])
            Issue.record("expected -32002")
        } catch let error as RPCError {
            #expect(error.code == -32002)
            #expect(error.data?["suggestion"] == "setWiFiGate")
            #expect(error.data?["known"]?.arrayValue?.contains("challenge.skip") == true)
            #expect(error.message.hasPrefix("Unknown intent: setWifiGate (did you mean setWiFiGate? known: selectApps, "))
        }
    }

    @Test func oversizedLineClosesOnlyItsOwnConnection() throws {
        let daemon = try DaemonProcess(arguments: [], config: ["maxRequestBytes": 4096])
        defer { daemon.stop() }
        let bystander = try daemon.connect()
        let offender = try daemon.connect()
        try offender.send(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"pad":""# + String(repeating: "x", count: 10_000) + "\"}}\n")
        #expect(errorCode(try offender.readLine()) == -32004)
        #expect(offender.waitForClose())
        try bystander.send(#"{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"# + "\n")
        let reply = try bystander.readLine()
        #expect(reply?.contains(#""pong":true"#) == true)
    }

    @Test func batchesAndNotifications() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let connection = try daemon.connect()
        try connection.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},{"jsonrpc":"2.0","method":"event","params":{"type":"lock"}},{"jsonrpc":"2.0","id":2,"method":"nope"},{"x":1}]"#
                + "\n")
        let batch = try JSONWire.decode(JSONValue.self, from: Data((try connection.readLine() ?? "").utf8))
        let items = batch.arrayValue ?? []
        #expect(items.count == 3)
        #expect(items.first { $0["id"] == 1 }?["result"]?["pong"] == true)
        #expect(items.first { $0["id"] == 2 }?["error"]?["code"] == -32601)
        #expect(items.contains { $0["id"] == .null && $0["error"]?["code"] == -32600 })
        // The notification inside the batch was executed: the device is locked.
        #expect(try daemon.call("device.state")["locked"] == true)

        try connection.send(#"[{"jsonrpc":"2.0","method":"event","params":{"type":"unlock"}}]"# + "\n")
        try connection.send(#"{"jsonrpc":"2.0","id":9,"method":"daemon.ping"}"# + "\n")
        let next = try connection.readLine() ?? ""
        #expect(next.contains(#""id":9"#), "a batch of notifications gets no response at all")
        #expect(try daemon.call("device.state")["locked"] == false)
    }
}
