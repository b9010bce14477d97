import ControlProtocol
import DeviceActors
import Foundation
import ScenarioFiles
@_spi(Host) import SimulatediOS

/// The parsers of what the daemon reads from the wire and from disk, callable without a daemon
/// around them: what the coverage-guided fuzzers in `Fuzz/` drive (docs/fuzzing.md,
/// "Coverage-guided"). Each takes arbitrary bytes, must never trap, and answers something a
/// fuzzer can check (a count, a value that must round-trip).
@_spi(Fuzzing) public enum FuzzEntryPoints {
    /// Frames `chunks` as a connection receives them, at most `maxLineBytes` a line: the lines
    /// handed out, and whether the stream ended over the limit.
    public static func frameLines(_ chunks: [[UInt8]], maxLineBytes: Int) -> (lines: [[UInt8]], tooLarge: Bool) {
        var buffer = LineBuffer(maxLineBytes: maxLineBytes)
        var lines: [[UInt8]] = []
        for chunk in chunks {
            buffer.append(chunk)
            while true {
                switch buffer.next({ lines.append(Array($0)) }) {
                case .line: continue
                case .tooLarge: return (lines, true)
                case .needMore: break
                }
                break
            }
        }
        return (lines, false)
    }

    /// Parses JSON as the daemon reads requests and journals (RFC 8259, strict); nil when it is
    /// not JSON.
    public static func parseJSON(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        try? JSONValue(parsing: bytes)
    }

    /// Whether a request line, read as the dispatcher reads it (a single object's members kept
    /// without building the object), means what its whole value means: refused as not JSON
    /// exactly when ``parseJSON(_:)`` refuses it, and a single request validated the same.
    public static func requestLineAgreesWithItsValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let whole = parseJSON(bytes)
        switch InboundMessage.parse(bytes) {
        case .failure(let error) where error.code == RPCError.Code.parseError: return whole == nil
        case .failure, .success(.batch): return whole != nil
        case .success(.single(let item)):
            guard let whole else { return false }
            switch (item, RPCRequest.validate(whole)) {
            case (.success(let read), .success(let built)): return read == built
            case (.failure(let read), .failure(let built)): return read.id == built.id && read.error == built.error
            default: return false
            }
        }
    }

    /// Encodes a value as every answer and journal line is written.
    public static func encodeJSON(_ value: JSONValue) throws -> [UInt8] {
        try JSONWire.bytes(value)
    }

    /// Reads one request line as the dispatcher does, then runs each request of a device method
    /// on a new device (virtual clock, 2026-01-05 09:00 UTC, seed 0) as a restart replays its
    /// journal: the params decoded strictly, the method's work done on the device. The device's
    /// app is the first of `apps`, or the one a `device.create` of the line names (`"app"`), so
    /// that a batch opening with one drives any app. Returns how many requests the device took.
    public static func perform(requestLine bytes: UnsafeRawBufferPointer, apps: [AppRegistration]) -> Int {
        guard case .success(let message) = InboundMessage.parse(bytes, maxBatchRequests: 64) else { return 0 }
        let requests: [RPCRequest] =
            switch message {
            case .single(let request): (try? request.get()).map { [$0] } ?? []
            case .batch(let requests): requests.compactMap { try? $0.get() }
            }
        let named = requests.lazy.filter { $0.method == Method.deviceCreate.rawValue }.compactMap { $0.params?["app"]?.stringValue }.first
        let app = apps.first { $0.name == named } ?? apps[0]
        guard
            let device = try? SimulatedDevice(
                DeviceDescription(
                    name: "fuzz", apps: .registered([app]), start: Date(timeIntervalSince1970: 1_767_603_600),
                    timeZone: TimeZone(identifier: "UTC")!, seed: 0))
        else { preconditionFailure("a device of \(app.name) cannot be made with the default config") }
        var taken = 0
        for request in requests {
            guard let method = Method(rawValue: request.method), let replay = DeviceRoutes.table[method]?.replay else { continue }
            if (try? replay(device, request.params ?? [:])) != nil { taken += 1 }
        }
        return taken
    }

    /// Reads a scenario file as `scenario.run` and `clarityctl explore` do; nil when refused.
    public static func scenario(_ bytes: UnsafeRawBufferPointer, apps: [AppRegistration]) -> Scenario? {
        guard let value = try? JSONValue(parsing: bytes) else { return nil }
        return try? ScenarioFile.scenario(from: value, catalog: AppCatalog(apps))
    }

    /// Reads a snapshot file as a restart does, restores a device of `apps` from it, lets a
    /// day of virtual time pass on it and snapshots it again: whether the device came back. A
    /// damaged file is refused (the restart sets it aside); nothing in it may trap.
    public static func restore(snapshot data: Data, apps: [AppRegistration]) -> Bool {
        guard let snapshot = try? DeviceStateStore.decodeSnapshot(data),
            let device = try? SimulatedDevice(restoring: snapshot, catalog: AppCatalog(apps))
        else { return false }
        _ = try? device.advance(seconds: 86_400)
        return (try? device.snapshot()) != nil
    }

    /// Reads a server instance's state as a restart does: the first line its snapshot file
    /// (`<name>.json` in the server's directory), the lines after it its journal's operations,
    /// applied again in order (each moving the clock and running the server's jobs). Whether the
    /// snapshot read.
    public static func restore(server: ServerRegistration, _ data: Data) -> Bool {
        let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = lines.first, let stored = try? StoredServer.decode(Data(first), of: server) else { return false }
        _ = ServerStore.replay(lines.count > 1 ? Data(lines[1]) : Data(), on: ServerHost(server, restoring: stored))
        return true
    }

    /// libFuzzer's custom mutator for inputs that are lines of JSON (fuzz-backend's and
    /// fuzz-snapshot's `LLVMFuzzerCustomMutator`): one mutation in four sets a number to an edge
    /// (``settingANumberToAnEdge(_:size:capacity:seed:)``), the others are libFuzzer's own byte
    /// mutations, `mutateBytes` (its `LLVMFuzzerMutate`).
    public static func mutateJSONLines(
        _ buffer: UnsafeMutablePointer<UInt8>, size: Int, capacity: Int, seed: UInt32,
        mutateBytes: (UnsafeMutablePointer<UInt8>, Int, Int) -> Int
    ) -> Int {
        if seed % 4 == 0, let mutated = settingANumberToAnEdge(buffer, size: size, capacity: capacity, seed: seed / 4) {
            return mutated
        }
        return mutateBytes(buffer, size, capacity)
    }

    /// Structure-aware mutation for inputs that are lines of JSON (fuzz-backend's, fuzz-snapshot's): rewrites the
    /// `size` bytes at `buffer` (at most `capacity` bytes) with one number of one line set to a
    /// value at an edge (Int64's ends, 2^53, 1e308, -1, …), which byte mutations almost never
    /// write into kilobytes of JSON — fuzz-backend's restart trap (a clock of `Int64.min`) went
    /// unfound until written by hand. `seed` picks the line, the number and the value. The new
    /// size, or nil (the line is not JSON, holds no number, or the result does not fit): the
    /// caller then mutates bytes as libFuzzer does.
    public static func settingANumberToAnEdge(
        _ buffer: UnsafeMutablePointer<UInt8>, size: Int, capacity: Int, seed: UInt32
    ) -> Int? {
        var lines = UnsafeBufferPointer(start: buffer, count: size).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map(Array.init)
        let line = Int(seed % UInt32(lines.count))
        guard let value = lines[line].withUnsafeBytes({ try? JSONValue(parsing: $0) }) else { return nil }
        let numbers = numberCount(in: value)
        guard numbers > 0 else { return nil }
        var seen = 0
        let edge = numberEdges[Int(seed >> 24) % numberEdges.count]
        let mutated = replacingNumber(in: value, at: Int((seed >> 8) % UInt32(numbers)), with: edge, counted: &seen)
        guard let encoded = try? JSONWire.bytes(mutated) else { return nil }
        lines[line] = encoded
        let joined = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        guard joined.count <= capacity else { return nil }
        joined.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: joined.count) }
        return joined.count
    }

    private static let numberEdges: [JSONValue] = [
        .int(.min), .int(.max), .int(.min + 1), .int(.max - 1), .int(-1), .int(0), .int(1 << 53), .int(-(1 << 53)),
        .int(1 << 62), .double(1e19), .double(-1e19), .double(1e308), .double(-1e308), .double(.leastNonzeroMagnitude),
    ]

    /// How many numbers `value` holds, at any depth (inside base64 JSON too: ``nestedJSON(_:)``).
    private static func numberCount(in value: JSONValue) -> Int {
        switch value {
        case .int, .double: 1
        case .array(let items): items.reduce(0) { $0 + numberCount(in: $1) }
        case .object(let members): members.values.reduce(0) { $0 + numberCount(in: $1) }
        case .string(let text): nestedJSON(text).map { numberCount(in: $0) } ?? 0
        case .null, .bool: 0
        }
    }

    /// The JSON object or array that `text` holds in base64: a snapshot's `appData` (an app's
    /// own store) and its selections are kept so, and their numbers are where an app's
    /// arithmetic would overflow.
    private static func nestedJSON(_ text: String) -> JSONValue? {
        guard text.utf8.count >= 8, let data = Data(base64Encoded: text),
            let value = data.withUnsafeBytes({ try? JSONValue(parsing: $0) })
        else { return nil }
        switch value {
        case .object, .array: return value
        default: return nil
        }
    }

    /// `value` with its `target`-th number (objects' members in key order) replaced by `edge`;
    /// `counted` goes up by each number passed.
    private static func replacingNumber(in value: JSONValue, at target: Int, with edge: JSONValue, counted: inout Int) -> JSONValue {
        switch value {
        case .int, .double:
            counted += 1
            return counted - 1 == target ? edge : value
        case .array(let items):
            return .array(items.map { replacingNumber(in: $0, at: target, with: edge, counted: &counted) })
        case .object(let members):
            var replaced = members
            for key in members.keys.sorted() {
                replaced[key] = replacingNumber(in: members[key]!, at: target, with: edge, counted: &counted)
            }
            return .object(replaced)
        case .string(let text):
            guard let nested = nestedJSON(text) else { return value }
            let replaced = replacingNumber(in: nested, at: target, with: edge, counted: &counted)
            guard let bytes = try? JSONWire.bytes(replaced) else { return value }
            return .string(Data(bytes).base64EncodedString())
        case .null, .bool:
            return value
        }
    }

    /// Reads a device's journal as a restart does: how many entries after its header read
    /// (nil when the header does not).
    public static func readJournal(_ data: Data) -> Int? {
        let parsed = DeviceStateStore.ParsedJournal(data)
        return parsed.header == nil ? nil : parsed.lines.count
    }
}
