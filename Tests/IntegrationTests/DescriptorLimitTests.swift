import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// Many devices under a low descriptor limit (docs/protocol.md, Transport and framing): devices
/// borrow descriptors for their journals, clients keep theirs, and a restart under an even lower
/// limit brings every device back.
@Suite struct DescriptorLimitTests {
    /// Under `ulimit -n 256` (macOS launchd's default soft limit) the 239th device failed with
    /// -32006 "Too many open files" and new clients could not connect; restarted under 150, 95
    /// journals could not be opened and the daemon could not start at all, on every try.
    @Test func threeHundredDevicesUnderTwoHundredFiftySixDescriptorsAndARestartUnderOneFifty() throws {
        let daemon = try DaemonProcess(config: ["durability": "write"], descriptorLimit: 256)
        defer { daemon.stop() }
        let creator = try daemon.connect(receiveTimeout: 60)
        for index in 0..<300 {
            let answer = try #require(try creator.call(id: index, "device.create", ["device": .string("d\(index)")]))
            try #require(answer["result"]?["name"] == .string("d\(index)"), "device \(index): \(answer)")
            if index % 3 == 0 {
                _ = try creator.call(id: index, "store.set", ["device": .string("d\(index)"), "key": "n", "value": .int(index)])
            }
        }
        let clients = try (0..<40).map { _ in try daemon.connect() }
        for (index, client) in clients.enumerated() {
            #expect(try client.call(id: index, "daemon.ping")?["result"]?["pong"] == true)
        }
        let descriptors = try #require(daemon.call("daemon.status")["descriptors"])
        #expect(descriptors["limit"] == 256)
        #expect(descriptors["journalLimit"] == 64)
        #expect((descriptors["journalsOpen"]?.intValue ?? 99) <= 64)
        #expect((descriptors["open"]?.intValue ?? 999) < 256)

        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
        daemon.descriptorLimit = 150
        try daemon.start()
        #expect(try daemon.call("device.list").arrayValue?.count == 301)
        #expect(try daemon.call("store.get", ["device": "d297", "key": "n"])["value"] == 297)
        #expect(try daemon.call("store.set", ["device": "d299", "key": "n", "value": 1])["ok"] == true)
        #expect(!daemon.log.contains("cannot be opened"), "\(daemon.log)")
        #expect(try daemon.call("daemon.status")["descriptors"]?["journalLimit"] == 37)
    }

    /// A soft limit below the hard one is raised to it at start, and the log says so.
    @Test func theSoftLimitIsRaisedToTheHardOne() throws {
        let daemon = try DaemonProcess(descriptorLimit: 300)
        defer { daemon.stop() }
        daemon.kill(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        daemon.softDescriptorLimit = 100
        try daemon.start()
        #expect(try daemon.call("daemon.status")["descriptors"]?["limit"] == 300)
        #expect(daemon.log.contains("descriptors: soft limit raised from 100 to 300"), "\(daemon.log)")
    }
}
