import ControlProtocol
import DaemonTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creating, removing and driving the same few devices from many connections at once (issue 7,
/// items 6 and 7): one device, one serial path, create and remove included. No request is
/// answered -32603, the devices listed are the devices on disk, and a `kill -9` brings back
/// exactly what was there.
@Suite struct RegistryRaceTests {
    @Test func createRemoveAndRequestsOnTheSameNamesStayConsistent() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let socketPath = daemon.socketPath
        let internalErrors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            guard let connection = try? RawConnection(path: socketPath) else { return }
            var random = SplitMix(seed: UInt64(client))
            for index in 0..<150 {
                let name = ["a", "b", "c"].randomElement(using: &random)!
                let requests = [
                    #"{"jsonrpc":"2.0","id":1,"method":"device.create","params":{"device":"\#(name)"}}"#,
                    #"{"jsonrpc":"2.0","id":1,"method":"device.remove","params":{"device":"\#(name)"}}"#,
                    #"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"device":"\#(name)","key":"k","value":\#(index)}}"#,
                    #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"device":"\#(name)","seconds":600}}"#,
                    // A batch runs off the device's lane, so its remove and create join the lane
                    // from outside while other clients' requests are queued on it.
                    #"[{"jsonrpc":"2.0","id":1,"method":"device.remove","params":{"device":"\#(name)"}},{"jsonrpc":"2.0","id":2,"method":"device.create","params":{"device":"\#(name)"}},{"jsonrpc":"2.0","id":3,"method":"device.list"}]"#,
                    #"[{"jsonrpc":"2.0","id":1,"method":"event","params":{"device":"\#(name)","type":"lock"}},{"jsonrpc":"2.0","id":2,"method":"store.set","params":{"device":"\#(name)","key":"j","value":\#(client)}},{"jsonrpc":"2.0","id":3,"method":"device.state","params":{"device":"\#(name)"}}]"#,
                ]
                guard (try? connection.send(requests.randomElement(using: &random)! + "\n")) != nil,
                    let answer = try? connection.readLine()
                else { return }
                if answer.contains("-32603") { internalErrors.withLock { $0.append(answer) } }
            }
        }
        #expect(internalErrors.withLock { $0 }.isEmpty, "\(internalErrors.withLock { $0.prefix(3) })")

        let listed = try daemon.call("device.list").arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        let journals = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/devices")
            .filter { $0.hasSuffix(".journal") }.map { String($0.dropLast(".journal".count)) }
        #expect(listed.sorted() == journals.sorted())
        var before: [String: JSONValue] = [:]
        for name in listed { before[name] = try daemon.call("store.dump", ["device": .string(name)]) }

        daemon.kill(SIGKILL)
        #expect(daemon.waitForExit() == 137)
        try daemon.start()
        #expect(try daemon.call("device.list").arrayValue?.compactMap { $0["name"]?.stringValue }.sorted() == listed.sorted())
        for name in listed {
            #expect(try daemon.call("store.dump", ["device": .string(name)]) == before[name], "device \(name)")
        }
    }
}

/// A seeded generator, so that each client sends the same requests every run (the interleaving
/// is the daemon's to get right).
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
