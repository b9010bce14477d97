import ControlProtocol
import Foundation

/// A tracked App Group write: the owner of a device writes one of ``Vocabulary/trackedKeys``; the
/// value it leaves must still be there after any restart.
struct TrackedWrite {
    let device: String
    let suite: String
    let key: String
    /// What must be read back once the write is acknowledged: nil for `store.remove`.
    let value: JSONValue?
    /// False when the fuzzer cannot tell what the daemon stores for the value it sent.
    let predictable: Bool
}

/// One request in a step, as the fuzzer must judge its answer.
struct SentRequest {
    /// `method`, or `event:<type>` / `intent:<name>`: what it covers.
    var label: String
    var device: String?
    /// The id, when it is one the daemon must echo (a fresh string or integer).
    var id: JSONValue?
    var tracked: TrackedWrite?
    /// `device.create` of a name the rules refuse: it must be refused.
    var invalidDeviceName: String?
}

/// What a worker does next: lines to send, how, and what to expect.
struct Step {
    enum Transport {
        /// On the worker's connection, each line in one write.
        case connection
        /// On the worker's connection, the bytes cut into pieces sent a moment apart.
        case chunked
        /// On a new connection: write, half-close, read until the daemon closes.
        case oneShot
        /// On a new connection: part of a line, then close without reading.
        case abandon
    }

    var label: String
    var lines: [[UInt8]] = []
    var lineEnd: [UInt8] = [0x0A]
    var transport: Transport = .connection
    var requests: [SentRequest] = []
    /// Set when the step is one request with an id the daemon must echo: one answer line is
    /// expected; otherwise a `daemon.ping` sentinel follows and answers are read up to its own.
    var singleID: JSONValue?
    /// A line over the limit: the daemon answers -32004 and closes.
    var mayClose = false
    /// Where the pieces of a `chunked` step are cut, and where an `abandon` step stops.
    var cuts: [Int] = []

    var bytes: Int { lines.reduce(0) { $0 + $1.count + lineEnd.count } }
}

/// Generates one worker's steps from its own random stream: the same seed and worker give the same
/// steps, whatever the daemon answers.
struct RequestGenerator {
    private var random: FuzzRandom
    let worker: Int
    /// The device only this worker writes tracked keys to (and never removes).
    let ownDevice: String
    private var counter = 0

    init(seed: UInt64, worker: Int, ownDevice: String) {
        random = FuzzRandom(seed: seed, stream: UInt64(worker) + 1)
        self.worker = worker
        self.ownDevice = ownDevice
    }

    /// A hash of the first `steps` steps of every worker: the same for the same seed on any
    /// machine, so a replay can be seen to send what the original run sent.
    static func fingerprint(seed: UInt64, workers: Int, steps: Int = 200) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for worker in 0..<workers {
            var generator = RequestGenerator(seed: seed, worker: worker, ownDevice: "own\(worker)")
            for _ in 0..<steps {
                for line in generator.next().lines {
                    for byte in line + [0x0A] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                }
            }
        }
        return String(hash, radix: 16)
    }

    // MARK: steps

    mutating func next() -> Step {
        let kind = random.weighted([
            (640, 0), (80, 1), (120, 2), (40, 3), (30, 4), (25, 5), (20, 6), (15, 7), (25, 8), (4, 9), (1, 10),
        ])
        switch kind {
        case 0: return single(request())
        case 1: return batch()
        case 2: return single(trackedWrite())
        case 3: return malformed()
        case 4:
            var step = single(request())
            step.transport = .chunked
            step.cuts = (0..<random.int(1...4)).map { _ in random.below(max(1, step.bytes)) }.sorted()
            return step
        case 5: return oneShot()
        case 6:
            var step = single(request())
            step.transport = .abandon
            step.cuts = [random.int(1...max(1, step.bytes - 1))]
            step.singleID = nil
            step.label = "abandoned " + step.label
            return step
        case 7: return pipelined()
        case 8:
            var step = single(request())
            step.lineEnd = [0x0D, 0x0A]
            return step
        case 9: return yearOnAFreshDevice()
        default: return oversized()
        }
    }

    private mutating func freshID() -> FuzzValue {
        counter += 1
        return random.chance(0.5) ? .string("w\(worker).\(counter)") : .int(worker * 1_000_000_000 + counter)
    }

    private static func json(_ id: FuzzValue) -> JSONValue? {
        switch id {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        default: nil
        }
    }

    /// A request: its JSON object and what the fuzzer must know about it.
    struct Built {
        var object: FuzzValue
        var sent: SentRequest
    }

    private mutating func single(_ built: Built) -> Step {
        var step = Step(label: built.sent.label)
        step.lines = [built.object.bytes]
        step.requests = [built.sent]
        step.singleID = built.sent.id
        step.mayClose = step.lines[0].count > ClarityProtocol.defaultMaxRequestBytes
        return step
    }

    private mutating func batch() -> Step {
        var members: [FuzzValue] = []
        var sent: [SentRequest] = []
        var hasTracked = false
        for _ in 0..<random.int(1...8) {
            switch random.below(30) {
            case 0: members.append(random.pick([.int(1), .array([]), .string("x"), .null, .object([])]))
            case 1: members.append(.array([request().object]))
            default:
                // One tracked write at most: the daemon may run a batch's members in any order.
                var built = !hasTracked && random.chance(0.15) ? trackedWrite() : request()
                hasTracked = hasTracked || built.sent.tracked != nil
                if built.sent.tracked == nil, random.chance(0.2) { built = notification(built) }
                members.append(built.object)
                sent.append(built.sent)
            }
        }
        if random.chance(0.03) {
            members = []
            sent = []
        }
        var step = Step(label: "batch of \(members.count): " + sent.map(\.label).joined(separator: ", "))
        step.lines = [FuzzValue.array(members).bytes]
        step.requests = sent
        step.mayClose = step.lines[0].count > ClarityProtocol.defaultMaxRequestBytes
        return step
    }

    private mutating func oneShot() -> Step {
        var step = Step(label: "one-shot")
        step.transport = .oneShot
        for _ in 0..<random.int(1...3) {
            let built = random.chance(0.2) ? trackedWrite() : request()
            step.lines.append(built.object.bytes)
            step.requests.append(built.sent)
            step.label += " " + built.sent.label
        }
        // The last line may go without its newline: the daemon must still answer it.
        if random.chance(0.5) { step.cuts = [-1] }
        step.mayClose = step.lines.contains { $0.count > ClarityProtocol.defaultMaxRequestBytes }
        return step
    }

    private mutating func pipelined() -> Step {
        var step = Step(label: "pipelined")
        let reads = random.chance(0.3)
        for _ in 0..<(reads ? random.int(20...150) : random.int(2...12)) {
            let built: Built
            if reads {
                let method = random.pick(["device.state", "store.dump", "trace.get", "activity.list", "daemon.status"])
                built = plain(method, params: method == "daemon.status" ? nil : .object([("device", .string(pickDevice()))]))
            } else {
                built = random.chance(0.2) ? trackedWrite() : request()
            }
            step.lines.append(built.object.bytes)
            step.requests.append(built.sent)
        }
        step.label += " \(step.lines.count): " + step.requests.prefix(6).map(\.label).joined(separator: ", ")
        step.mayClose = step.lines.contains { $0.count > ClarityProtocol.defaultMaxRequestBytes }
        return step
    }

    /// A device of the worker's own (never shared) is created, advanced by the longest advance
    /// allowed, and removed again: a year on a device with nothing else running.
    private mutating func yearOnAFreshDevice() -> Step {
        let name = "year\(worker)"
        var step = Step(label: "a year on a fresh device")
        for built in [
            plain("device.create", params: .object([("device", .string(name))])),
            plain("clock.advance", params: .object([("device", .string(name)), ("seconds", .int(31_622_400))])),
            plain("device.remove", params: .object([("device", .string(name))])),
        ] {
            step.lines.append(built.object.bytes)
            step.requests.append(built.sent)
        }
        return step
    }

    private mutating func oversized() -> Step {
        let size = random.weighted([(1, ClarityProtocol.defaultMaxRequestBytes - 120), (3, ClarityProtocol.defaultMaxRequestBytes + 1), (3, 1_200_000)])
        let built = plain(
            "store.set",
            params: .object([("device", .string(pickDevice())), ("key", .string("big")), ("value", .string(String(repeating: "b", count: size)))]))
        var step = single(built)
        step.label = "store.set of a \(size)-byte string"
        return step
    }

    private mutating func malformed() -> Step {
        let depth = random.pick([511, 512, 513, 100_000])
        let samples: [[UInt8]] = [
            Array("{".utf8), Array("}".utf8), Array("[]".utf8), Array("[1,2]".utf8), Array("{}".utf8), Array("null".utf8),
            Array("\"daemon.ping\"".utf8), Array("   \t ".utf8), Array("".utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"} trailing"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"a":1e400}}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":1e400,"method":"daemon.ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping",}"#.utf8),
            Array(#"{'jsonrpc':'2.0','id':1,'method':'daemon.ping'}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":01,"method":"daemon.ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":"\ud800","method":"daemon.ping"}"#.utf8),
            [0xEF, 0xBB, 0xBF] + Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#.utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#.utf8) + [0x00],
            Array(#"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"key":"u","value":""#.utf8) + [0xC3, 0x28, 0x22, 0x7D, 0x7D],
            Array(#"{"jsonrpc":"2.0","id":1,"method":"store.set","params":{"key":"u","value":""#.utf8) + [0xED, 0xA0, 0x80, 0x22, 0x7D, 0x7D],
            [0xFF, 0xFE, 0xFD], Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth),
            Array(repeating: UInt8(ascii: "["), count: depth),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":"#.utf8) + Array(repeating: UInt8(ascii: "{"), count: 40),
            Array(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},"#.utf8),
            (0..<random.int(1...64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }.filter { $0 != 0x0A },
        ]
        var step = Step(label: "malformed line")
        step.lines = [random.pick(samples)]
        return step
    }

    // MARK: requests

    /// A plausible request for any method, now and then mutated: a field dropped, added, of the
    /// wrong type or on an edge; params, id, `jsonrpc` or method of another form.
    mutating func request() -> Built {
        let method = random.weighted([
            (200, "event"), (180, "intent"), (100, "clock.advance"), (90, "store.set"), (35, "store.get"),
            (35, "store.remove"), (20, "store.dump"), (50, "device.create"), (35, "device.remove"), (30, "device.state"),
            (40, "device.config"), (60, "activity.start"), (20, "activity.stop"), (15, "activity.list"), (30, "trace.get"),
            (15, "notifications.list"), (10, "shields.get"), (20, "shield.config"), (10, "sandbox.list"), (10, "clock.now"),
            (10, "device.list"), (8, "daemon.ping"), (8, "daemon.status"), (5, "daemon.catalog"), (2, "daemon.shutdown"),
            (10, "unserved"),
        ])
        var built: Built
        switch method {
        case "unserved": built = plain(random.pick(Vocabulary.unservedMethods), params: random.chance(0.5) ? nil : .object([]))
        case "daemon.shutdown":
            // Only ever with a member it does not take: it must be refused, never obeyed.
            built = plain(method, params: random.chance(0.5) ? .object([("now", .bool(true))]) : .array([.int(1)]))
        case "daemon.ping", "daemon.status", "daemon.catalog", "device.list":
            built = plain(method, params: random.chance(0.9) ? nil : .object([]))
        default: built = plain(method, params: params(for: method))
        }
        if random.chance(0.2) { built = mutated(built) }
        if random.chance(0.04) { built = notification(built) }
        return built
    }

    /// A request with a fresh id, `jsonrpc` 2.0, the method and params as given.
    mutating func plain(_ method: String, params: FuzzValue?) -> Built {
        let id = freshID()
        var members: [(String, FuzzValue)] = [("jsonrpc", .string("2.0")), ("id", id), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        if random.chance(0.1) { members = random.shuffled(members) }
        var label = method
        let device = params?["device"].flatMap { value -> String? in
            if case .string(let name) = value { return name }
            return nil
        }
        if method == "event", case .string(let type)? = params?["type"] { label += ":" + type }
        if method == "intent", case .string(let name)? = params?["name"] { label += ":" + name }
        var sent = SentRequest(label: label, device: device ?? (params == nil ? nil : "default"), id: Self.json(id))
        if method == "device.create", let device, !Vocabulary.isValidDeviceName(device) { sent.invalidDeviceName = device }
        return Built(object: .object(members), sent: sent)
    }

    private mutating func notification(_ built: Built) -> Built {
        guard case .object(let members) = built.object else { return built }
        var sent = built.sent
        sent.id = nil
        sent.label += " (notification)"
        return Built(object: .object(members.filter { $0.0 != "id" }), sent: sent)
    }

    /// A tracked `store.set` or `store.remove` by the owner of the device.
    mutating func trackedWrite() -> Built {
        let key = random.pick(Vocabulary.trackedKeys)
        let suite = random.pick(Vocabulary.trackedSuites)
        var params: [(String, FuzzValue)] = [("device", .string(ownDevice)), ("key", .string(key))]
        if suite != Vocabulary.appGroupSuite || random.chance(0.5) { params.append(("suite", .string(suite))) }
        let tracked: TrackedWrite
        var built: Built
        if random.chance(0.25) {
            if random.chance(0.2) { params.append(("value", trackedValue(depth: 0))) }
            built = plain("store.remove", params: .object(random.shuffled(params)))
            tracked = TrackedWrite(device: ownDevice, suite: suite, key: key, value: nil, predictable: true)
        } else {
            let value = random.chance(0.9) ? trackedValue(depth: 0) : wildValue(depth: 0)
            params.append(("value", value))
            built = plain("store.set", params: .object(random.shuffled(params)))
            let stored = value.storedValue
            tracked = TrackedWrite(device: ownDevice, suite: suite, key: key, value: stored, predictable: stored != nil)
        }
        built.sent.tracked = tracked
        built.sent.label += " (tracked)"
        if random.chance(0.1) { built = notification(built) }
        return built
    }

    // MARK: params

    mutating func pickDevice() -> String {
        random.weighted([
            (45, ownDevice), (40, random.pick(Vocabulary.sharedDevices)), (3, Vocabulary.ghostDevice),
            (5, random.pick(Vocabulary.invalidDeviceNames)),
        ])
    }

    /// `device` for a device method: mostly set, sometimes left to its default.
    private mutating func deviceMember() -> [(String, FuzzValue)] {
        random.chance(0.07) ? [] : [("device", .string(pickDevice()))]
    }

    mutating func params(for method: String) -> FuzzValue? {
        var members: [(String, FuzzValue)]
        switch method {
        case "device.create":
            let name: String = random.weighted([
                (70, random.pick(Vocabulary.sharedDevices)), (25, random.pick(Vocabulary.invalidDeviceNames)), (5, ownDevice),
            ])
            members = [("device", .string(name))]
            if random.chance(0.3) { members.append(("app", .string(random.weighted([(8, "clarity"), (2, random.pick(Vocabulary.apps))])))) }
            if random.chance(0.3) { members.append(("clock", .string(random.weighted([(5, "virtual"), (3, "wall"), (1, "Virtual"), (1, "")])))) }
            if random.chance(0.5) { members.append(("start", .string(start()))) }
            if random.chance(0.5) { members.append(("timezone", .string(timezone()))) }
            if random.chance(0.3) { members.append(("seed", random.chance(0.8) ? .int(random.int(0...1000)) : edgeNumber())) }
            if random.chance(0.4) { members.append(("config", config())) }
        case "device.remove":
            let name: String = random.weighted([(85, random.pick(Vocabulary.sharedDevices)), (15, random.pick(Vocabulary.invalidDeviceNames))])
            members = [("device", .string(name))]
        case "device.config":
            members = deviceMember()
            if random.chance(0.7) { members.append(("config", config())) }
        case "event": members = deviceMember() + eventFields()
        case "clock.advance": members = deviceMember() + [("seconds", advanceSeconds())]
        case "intent":
            members = deviceMember()
            let name = random.chance(0.95) ? random.pick(Vocabulary.intents) : random.pick(Vocabulary.unknownIntents)
            members.append(("name", .string(name)))
            if let args = intentArguments(name) { members.append(("args", args)) }
        case "store.get", "store.remove", "store.set", "store.dump":
            members = deviceMember()
            // Deep, wide and large values go to one key only, so what the devices hold stays bounded.
            let large = method == "store.set" && random.chance(0.03)
            if method != "store.dump" { members.append(("key", .string(large ? "big" : untrackedKey()))) }
            if random.chance(0.4) { members.append(("suite", .string(untrackedSuite()))) }
            if method == "store.set" || (method == "store.remove" && random.chance(0.1)) {
                members.append(("value", large ? largeValue() : wildValue(depth: 0)))
            }
        case "shield.config": members = deviceMember() + [("app", .string(bundleID()))]
        case "notifications.list":
            members = deviceMember()
            if random.chance(0.6) {
                members.append(("since", random.chance(0.7) ? .int(random.int(0...100_000)) : edgeNumber()))
            }
        case "activity.start":
            members = deviceMember() + [("name", .string(activityName())), ("schedule", schedule())]
            if random.chance(0.5) { members.append(("events", activityEvents())) }
        case "activity.stop":
            members = deviceMember()
            if random.chance(0.8) {
                members.append(("names", .array((0..<random.int(0...3)).map { _ in .string(activityName()) })))
            } else {
                members.append(("name", .string(activityName())))
            }
        case "trace.get":
            members = deviceMember()
            if random.chance(0.6) { members.append(("since", random.chance(0.7) ? .int(random.int(0...5000)) : edgeNumber())) }
            if random.chance(0.8) { members.append(("limit", random.chance(0.8) ? .int(random.int(0...500)) : edgeNumber())) }
        default:  // device.state, shields.get, sandbox.list, activity.list, clock.now
            members = deviceMember()
        }
        return .object(members)
    }

    private mutating func bundleID() -> String {
        random.chance(0.9) ? random.pick(Vocabulary.bundleIDs) : random.pick(Vocabulary.oddBundleIDs)
    }

    private mutating func eventFields() -> [(String, FuzzValue)] {
        let type = random.chance(0.95) ? random.pick(Vocabulary.eventTypes) : random.pick(Vocabulary.unservedEventTypes)
        var fields: [(String, FuzzValue)] = [("type", .string(type))]
        switch type {
        case "app.open", "app.close":
            // Instagram most of all: it is the app the friction path shields.
            fields.append(("app", .string(random.chance(0.4) ? "com.burbn.instagram" : bundleID())))
        case "shield.press":
            fields.append(("app", .string(random.chance(0.6) ? "com.burbn.instagram" : bundleID())))
            fields.append(("button", .string(random.weighted([(5, "primary"), (5, "secondary"), (1, "tertiary"), (1, "")]))))
        case "call.dial", "call.connect", "call.end":
            if random.chance(0.7) { fields.append(("handle", .string(phone()))) }
        case "wifi.join": fields.append(("ssid", .string(ssid())))
        case "wifi.leave": if random.chance(0.5) { fields.append(("ssid", .string(ssid()))) }
        case "contacts.set": fields.append(("contacts", .array((0..<random.int(0...8)).map { _ in contact(full: true) })))
        case "storekit.purchase", "storekit.expire", "storekit.refund":
            fields.append(("product", .string(random.chance(0.9) ? random.pick(Vocabulary.products) : random.pick(Vocabulary.oddProducts))))
        case "health.sample": fields += [("kind", .string("steps")), ("value", .int(100))]
        case "health.fail": fields.append(("count", .int(1)))
        default: break
        }
        return fields
    }

    private mutating func phone() -> String {
        random.chance(0.85) ? random.pick(Vocabulary.phones) : random.pick(Vocabulary.oddPhones)
    }

    private mutating func ssid() -> String {
        random.chance(0.85) ? random.pick(Vocabulary.ssids) : random.pick(Vocabulary.oddSSIDs)
    }

    private mutating func contact(full: Bool) -> FuzzValue {
        var members: [(String, FuzzValue)] = []
        if full || random.chance(0.7) { members.append(("id", .string(random.pick(Vocabulary.contactIDs)))) }
        if full || random.chance(0.7) {
            let name = random.chance(0.85) ? random.pick(Vocabulary.contactNames) : random.pick(Vocabulary.oddContactNames)
            members.append(("name", .string(name)))
        }
        if random.chance(0.7) { members.append(("phone", .string(phone()))) }
        return .object(members)
    }

    private mutating func intentArguments(_ name: String) -> FuzzValue? {
        var args: [(String, FuzzValue)] = []
        switch name {
        case "selectApps":
            let count = random.weighted([(10, random.int(0...3)), (2, random.int(4...12)), (1, random.pick([50, 51]))])
            args.append(("apps", .array((0..<count).map { _ in .string(bundleID()) })))
            if random.chance(0.4) {
                args.append(("categories", .array((0..<random.int(0...3)).map { _ in .string(category()) })))
            }
        case "setImportantContacts":
            args.append(("contacts", .array((0..<random.weighted([(10, random.int(0...5)), (1, random.int(6...8))])).map { _ in contact(full: false) })))
        case "setProsocial": args.append(("enabled", .bool(random.chance(0.5))))
        case "addHomeNetwork", "removeHomeNetwork": args.append(("ssid", .string(ssid())))
        case "setWiFiGate":
            if random.chance(0.8) { args.append(("enabled", .bool(random.chance(0.7)))) }
            if random.chance(0.5) { args.append(("strictMode", .bool(random.chance(0.5)))) }
        case "focus.start":
            args.append(("minutes", random.chance(0.85) ? .int(random.pick([1, 5, 25, 60, 90, 1440, random.int(1...1440)])) : edgeNumber()))
            if random.chance(0.5) { args.append(("whitelist", .array((0..<random.int(0...3)).map { _ in .string(bundleID()) }))) }
        case "logMood": args.append(("mood", random.chance(0.85) ? .int(random.int(1...5)) : edgeNumber()))
        default:
            return random.chance(0.5) ? nil : .object([])
        }
        return .object(args)
    }

    private mutating func category() -> String {
        random.chance(0.9) ? random.pick(Vocabulary.categories) : random.pick(Vocabulary.oddCategories)
    }

    private mutating func start() -> String {
        random.chance(0.8) ? random.pick(Vocabulary.starts) : random.pick(Vocabulary.oddStarts)
    }

    private mutating func timezone() -> String {
        random.chance(0.85) ? random.pick(Vocabulary.timezones) : random.pick(Vocabulary.oddTimezones)
    }

    private mutating func activityName() -> String {
        random.chance(0.9) ? random.pick(Vocabulary.activityNames) : random.pick(Vocabulary.oddActivityNames)
    }

    mutating func edgeNumber() -> FuzzValue { random.pick(Vocabulary.edgeNumbers) }

    /// Seconds for `clock.advance`: mostly minutes to hours, some days, fractions; now and then a
    /// value on or past the edge (> 0 and ≤ 31622400). Valid advances stay within 8 days, so no
    /// request needs long to answer (a year is in ``yearOnAFreshDevice()``).
    private mutating func advanceSeconds() -> FuzzValue {
        switch random.weighted([(30, 0), (20, 1), (10, 2), (4, 3), (2, 4), (6, 5), (8, 6)]) {
        case 0: return .int(random.int(1...600))
        case 1: return .int(random.int(601...7200))
        case 2: return .int(random.pick([86_400, 3600 * 24 - 1, random.int(7201...86_400)]))
        case 3: return .int(random.int(86_401...172_800))
        case 4: return .int(random.pick([604_800, random.int(172_801...691_200)]))
        case 5: return .number(random.pick(["0.001", "0.5", "59.999", "1.5", "3600.25", "1e-3", "0.0001"]))
        default:
            return random.pick([
                .int(0), .int(-1), .int(31_622_401), .number("1e19"), .int(Int.max), .int(Int.min), .number("1e308"),
                .number("4.9e-324"), .number("-0.0"), .string("60"), .string("NaN"), .null, .number("31622400.5"),
            ])
        }
    }

    // MARK: DeviceActivity

    /// A DateComponents: mostly hours and minutes, sometimes a weekday or a whole date, now and
    /// then a field that is huge, negative or not an integer.
    mutating func dateComponents() -> FuzzValue {
        var members: [(String, FuzzValue)]
        switch random.below(10) {
        case 0...4:
            members = [("hour", .int(random.int(0...23)))]
            if random.chance(0.6) { members.append(("minute", .int(random.pick([0, 15, 30, 45, 59, random.int(0...59)])))) }
            if random.chance(0.2) { members.append(("second", .int(random.int(0...59)))) }
        case 5: members = [("weekday", .int(random.int(1...7))), ("hour", .int(random.int(0...23)))]
        case 6:
            members = [
                ("year", .int(random.pick([2026, 2027, 2025]))), ("month", .int(random.int(1...12))), ("day", .int(random.int(1...31))),
                ("hour", .int(random.int(0...23))),
            ]
        case 7: members = []
        case 8: members = [("minute", .int(random.int(0...59)))]
        default:
            let field = random.pick(["year", "month", "day", "weekday", "hour", "minute", "second", "nanosecond", "era"])
            members = [(field, edgeNumber())]
            if random.chance(0.5) { members.append(("hour", .int(random.int(0...23)))) }
        }
        if random.chance(0.05), !members.isEmpty {
            let index = random.below(members.count)
            members[index].1 = random.pick([.int(1 << 62), .int(-1), .int(Int.max), .int(Int.min), .int(25), .int(60), .int(100_000)])
        }
        return .object(members)
    }

    private mutating func schedule() -> FuzzValue {
        var members: [(String, FuzzValue)]
        switch random.below(8) {
        case 0:
            members = [("intervalStart", .object([("hour", .int(18))])), ("intervalEnd", .object([("hour", .int(22))]))]
        case 1:
            members = [("intervalStart", .object([("hour", .int(10))])), ("intervalEnd", .object([("hour", .int(11))]))]
        case 2:
            members = [
                ("intervalStart", .object([("hour", .int(0)), ("minute", .int(0)), ("second", .int(0))])),
                ("intervalEnd", .object([("hour", .int(23)), ("minute", .int(59)), ("second", .int(59))])),
            ]
        case 3:
            let hour = random.int(0...23)
            let minute = random.pick([0, 15, 30, 45])
            let length = random.pick([14, 15, 16, 60, 240, 720, 1439])
            let end = (hour * 60 + minute + length) % 1440
            members = [
                ("intervalStart", .object([("hour", .int(hour)), ("minute", .int(minute))])),
                ("intervalEnd", .object([("hour", .int(end / 60)), ("minute", .int(end % 60))])),
            ]
        case 4:
            members = [
                ("intervalStart", .object([("weekday", .int(random.int(1...7))), ("hour", .int(random.int(0...23)))])),
                ("intervalEnd", .object([("weekday", .int(random.int(1...7))), ("hour", .int(random.int(0...23)))])),
            ]
        default:
            members = [("intervalStart", dateComponents()), ("intervalEnd", dateComponents())]
        }
        members.append(("repeats", .bool(random.chance(0.6))))
        if random.chance(0.35) {
            let warning: FuzzValue = random.weighted([
                (6, .object([("minute", .int(random.pick([1, 5, 10, 15, 30, 60])))])), (1, .object([("hour", .int(1))])),
                (1, .object([("second", .int(30))])), (2, dateComponents()),
                (1, .object([("second", random.pick([.int(1 << 62), .int(Int.max), .int(-1), .number("1e19")]))])),
            ])
            members.append(("warningTime", warning))
        }
        return .object(members)
    }

    private mutating func activityEvents() -> FuzzValue {
        var events: [(String, FuzzValue)] = []
        for index in 0..<random.int(0...3) {
            var event: [(String, FuzzValue)] = []
            if random.chance(0.6) { event.append(("applications", .array((0..<random.int(0...3)).map { _ in .string(bundleID()) }))) }
            if random.chance(0.5) { event.append(("categories", .array((0..<random.int(0...2)).map { _ in .string(category()) }))) }
            let threshold: FuzzValue = random.weighted([
                (6, .object([("minute", .int(random.pick([1, 5, 15, 30, 60])))])), (2, .object([("second", .int(random.pick([1, 30, 59])))])),
                (1, .object([("hour", .int(1))])), (2, dateComponents()),
            ])
            event.append(("threshold", threshold))
            events.append((random.chance(0.9) ? "e\(index)" : random.pick(Vocabulary.oddActivityNames), .object(event)))
        }
        return .object(events)
    }

    // MARK: config

    mutating func config() -> FuzzValue {
        var members: [(String, FuzzValue)] = []
        if random.chance(0.3) {
            var budgets: [(String, FuzzValue)] = []
            for name in ["monitor", "shieldConfiguration", "shieldAction"] where random.chance(0.5) {
                budgets.append((name, byteCount([0, 1024, 2_097_152, 2_097_160, 4_194_304, 6_291_456, 67_108_864])))
            }
            members.append(("memoryBudgets", .object(budgets)))
        }
        if random.chance(0.25) { members.append(("baselineBytes", byteCount([0, 1_048_576, 2_097_152, 6_291_457]))) }
        if random.chance(0.5) {
            var quirks: [(String, FuzzValue)] = []
            for name in Vocabulary.quirks where random.chance(0.4) { quirks.append((name, .bool(random.chance(0.7)))) }
            if random.chance(0.05) { quirks.append((random.pick(["bogus", "BatchedThresholds", ""]), .bool(true))) }
            if random.chance(0.05), !quirks.isEmpty { quirks[0].1 = edgeNumber() }
            members.append(("quirks", .object(quirks)))
        }
        if random.chance(0.25) {
            members.append(("thresholdBatchIntervalSeconds", random.chance(0.8) ? .int(random.pick([1, 30, 60, 3600, 86_400])) : edgeNumber()))
        }
        if random.chance(0.25) {
            members.append(("defaultsPropagationDelaySeconds", random.chance(0.8) ? .int(random.pick([1, 2, 30, 3600, 86_400])) : edgeNumber()))
        }
        if random.chance(0.15) { members.append(("familyControlsAuthorized", random.chance(0.9) ? .bool(random.chance(0.5)) : edgeNumber())) }
        if random.chance(0.2) { members.append(("raceDetector", random.chance(0.9) ? .bool(random.chance(0.7)) : edgeNumber())) }
        if random.chance(0.1) {
            let lists: [[Int]] = [[5, 10, 15, 20, 25], [1, 2, 3, 4, 5], [1, 10, 100, 1000, 10_000], [5, 5, 10, 20, 25], [5, 10, 15, 20], [0, 1, 2, 3, 4], [1, 2, 3, 4, 1 << 62]]
            members.append(("frictionThresholdsMinutes", .array(random.pick(lists).map { .int($0) })))
        }
        if random.chance(0.1) {
            let app: FuzzValue = .object([("name", .string(random.pick(["Notes+", "Ünïcode", ""]))), ("category", .string(category()))])
            members.append(("apps", .object([(random.pick(["com.example.notes", "com.burbn.instagram", ""]), app)])))
        }
        if random.chance(0.05) { members.append((random.pick(["bogus", "baselinebytes", "memoryBudget"]), .int(1))) }
        return .object(members)
    }

    private mutating func byteCount(_ plausible: [Int]) -> FuzzValue {
        random.chance(0.85) ? .int(random.pick(plausible)) : edgeNumber()
    }

    // MARK: App Group values

    private mutating func untrackedKey() -> String {
        random.weighted([(5, random.pick(Vocabulary.appKeys)), (3, "k\(random.below(4))"), (2, random.pick(Vocabulary.oddKeys))])
    }

    private mutating func untrackedSuite() -> String {
        random.weighted([(6, Vocabulary.appGroupSuite), (2, "fz.other"), (2, random.pick(Vocabulary.oddSuites))])
    }

    private mutating func oddString() -> String {
        (0..<random.int(1...4)).map { _ in random.chance(0.6) ? random.pick(Vocabulary.oddStrings) : "x" }.joined()
    }

    /// A value whose stored form the fuzzer can predict: no null, no repeated key, numbers it can
    /// compare.
    mutating func trackedValue(depth: Int) -> FuzzValue {
        let kind = random.weighted([(3, 0), (4, 1), (2, 2), (4, 3), depth < 3 ? (2, 4) : (0, 4), depth < 3 ? (2, 5) : (0, 5), (2, 6)])
        switch kind {
        case 0: return .bool(random.chance(0.5))
        case 1:
            return .int(random.weighted([(6, random.int(-1000...1000)), (1, Int.min), (1, Int.max), (1, 1 << 53), (1, 1 << 62)]))
        case 2: return .number(random.pick(["1.5", "-2.25", "1e19", "1e308", "-0.5", "0.1", "123456.789", "9223372036854775808", "3.0"]))
        case 3: return .string(random.chance(0.5) ? "v\(random.below(1000))" : oddString())
        case 4: return .array((0..<random.int(0...4)).map { _ in trackedValue(depth: depth + 1) })
        case 5:
            let keys = random.shuffled(["a", "b", "é", "", "$json", "k\n"]).prefix(random.int(0...3))
            return .object(keys.map { ($0, trackedValue(depth: depth + 1)) })
        default:
            let data: [UInt8] =
                random.chance(0.3)
                ? Array(#"{"applicationTokens":["com.burbn.instagram"],"categoryTokens":[]}"#.utf8)
                : [0xFF] + (0..<random.int(0...40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return .object([("$data", .string(Data(data).base64EncodedString()))])
        }
    }

    /// Any value, mostly plausible, sometimes with null inside or escapes that are not Unicode.
    mutating func wildValue(depth: Int) -> FuzzValue {
        let kind = random.weighted([
            (15, 0), (10, 1), (5, 2), (15, 3), (5, 4), (3, 5), depth < 4 ? (10, 6) : (0, 6), depth < 4 ? (10, 7) : (0, 7),
            (8, 8),
        ])
        switch kind {
        case 0: return edgeNumber()
        case 1: return .int(random.int(-100...100))
        case 2: return .bool(random.chance(0.5))
        case 3: return .string(oddString())
        case 4: return .rawString(Array(random.pick(Vocabulary.rawStringBodies).utf8))
        case 5: return .null
        case 6: return .array((0..<random.int(0...5)).map { _ in wildValue(depth: depth + 1) })
        case 7:
            return .object((0..<random.int(0...4)).map { _ in (random.pick(["a", "b", "a", "$data", "$json", "", "é"]), wildValue(depth: depth + 1)) })
        default:
            let data: FuzzValue = random.weighted([
                (4, .string(Data((0..<random.int(0...64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }).base64EncodedString())),
                (2, .string(Data(#"{"a":[1,2,{"b":null}]}"#.utf8).base64EncodedString())), (1, .string("!!!not base64")),
                (1, .string("aGVsbG8")), (1, .int(3)), (1, .null), (1, .string("")),
            ])
            var members: [(String, FuzzValue)] = [("$data", data)]
            if random.chance(0.2) { members.append(("$json", wildValue(depth: depth + 1))) }
            if random.chance(0.1) { members.append(("extra", .int(1))) }
            return .object(members)
        }
    }

    /// A value that is deep (around the 512-level limit), wide or large.
    mutating func largeValue() -> FuzzValue {
        switch random.below(3) {
        case 0:
            // Deep: around the 512-level limit, counted from the request's root or the value's.
            let levels = random.pick([50, 400, 500, 505, 506, 507, 508, 509, 510, 511, 512, 600, 2000])
            if random.chance(0.5) {
                return .raw(Array(repeating: UInt8(ascii: "["), count: levels) + Array("1".utf8) + Array(repeating: UInt8(ascii: "]"), count: levels))
            }
            return .raw(Array(String(repeating: "{\"a\":", count: levels).utf8) + Array("1".utf8) + Array(repeating: UInt8(ascii: "}"), count: levels))
        case 1:
            // Wide.
            let count = random.pick([1000, 10_000, 50_000])
            if random.chance(0.5) { return .raw(Array(("[" + (0..<count).map { String($0 % 97) }.joined(separator: ",") + "]").utf8)) }
            return .raw(Array(("{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}").utf8))
        default:
            return .string(String(repeating: random.pick(["s", "é", "😀", "\u{0}"]), count: random.weighted([(6, 10_000), (3, 50_000), (1, 200_000)])))
        }
    }

    // MARK: mutations

    /// The request with one to three changes that make it odd or invalid.
    private mutating func mutated(_ built: Built) -> Built {
        guard case .object(var members) = built.object else { return built }
        var sent = built.sent
        for _ in 0..<random.int(1...3) {
            switch random.below(12) {
            case 0...4:
                if let index = members.firstIndex(where: { $0.0 == "params" }) {
                    members[index].1 = mutatedNode(members[index].1, depth: 0)
                } else {
                    members.append(("params", .object([("device", .string(random.pick(Vocabulary.sharedDevices)))])))
                }
            case 5:
                let form: FuzzValue = random.pick([
                    .array([.string("default")]), .array([]), .string("device"), .null, .int(1), .object([]),
                ])
                members.removeAll { $0.0 == "params" }
                if random.chance(0.8) { members.append(("params", form)) }
            case 6:
                let form: FuzzValue = random.pick([
                    .null, .string(""), .number("1.5"), .object([]), .array([]), .bool(true), .number("1e19"), .int(-1), .int(Int.min),
                    .int(Int.max), .number("9223372036854775808"), .string(oddString()), .number("-0"), .number("1.0"),
                ])
                members = members.map { $0.0 == "id" ? ("id", form) : $0 }
                sent.id = nil
            case 7:
                let form: FuzzValue? = random.pick([.string("1.0"), .number("2.0"), .string("2.0 "), .null, .string(""), nil])
                members.removeAll { $0.0 == "jsonrpc" }
                if let form { members.append(("jsonrpc", form)) }
            case 8:
                let method = members.first { $0.0 == "method" }?.1
                var form: FuzzValue = random.pick([.int(1), .null, .array([]), .string(""), .string(oddString())])
                if case .string(let name)? = method, random.chance(0.6) {
                    form = .string(random.pick([name.uppercased(), name + " ", String(name.dropLast()), name + "\u{0}", name + ".x"]))
                }
                members = members.map { $0.0 == "method" ? ("method", form) : $0 }
            case 9:
                // A repeated key: the first one counts.
                if let params = members.first(where: { $0.0 == "params" }), case .object(let inner) = params.1, let first = inner.first {
                    members = members.map { $0.0 == "params" ? ("params", .object(inner + [(first.0, wildValue(depth: 2))])) : $0 }
                } else {
                    members.append(("method", .string("daemon.ping")))
                }
            case 10: members.append((random.pick(["extra", "Params", "ID", "result", "error"]), wildValue(depth: 3)))
            default: members = random.shuffled(members)
            }
        }
        // A mutation never turns into a `daemon.shutdown` the daemon would obey: it keeps a member
        // the method does not take.
        if case .string("daemon.shutdown")? = members.first(where: { $0.0 == "method" })?.1 {
            members.removeAll { $0.0 == "params" }
            members.append(("params", .object([("now", .bool(true))])))
        }
        // Nor into a removal of the worker's own device.
        if case .string("device.remove")? = members.first(where: { $0.0 == "method" })?.1 {
            members = members.map { key, value in
                guard key == "params", case .object(let inner) = value else { return (key, value) }
                return (key, .object(inner.map { $0.0 == "device" && $0.1.isString(ownDevice) ? ($0.0, .string("race0")) : $0 }))
            }
        }
        sent.label += " (mutated)"
        sent.tracked = nil
        sent.invalidDeviceName = nil
        return Built(object: .object(members), sent: sent)
    }

    /// `node` with a change somewhere inside: a member dropped, added, replaced by an odd value,
    /// or a change one level further down.
    private mutating func mutatedNode(_ node: FuzzValue, depth: Int) -> FuzzValue {
        switch node {
        case .object(var members) where !members.isEmpty:
            let index = random.below(members.count)
            switch random.below(depth < 4 ? 5 : 4) {
            case 0: members.remove(at: index)
            case 1:
                let key = members[index].0
                let typo = random.pick([
                    "bogus", key.uppercased(), key + "s", String(key.dropLast()), key + " ", "device", "config", "\u{0}",
                ])
                members.append((typo, random.chance(0.5) ? members[index].1 : wildValue(depth: 3)))
            case 2: members[index].1 = edgeNumber()
            case 3: members[index].1 = wildValue(depth: 3)
            default: members[index].1 = mutatedNode(members[index].1, depth: depth + 1)
            }
            return .object(members)
        case .array(var elements) where !elements.isEmpty:
            let index = random.below(elements.count)
            switch random.below(4) {
            case 0: elements.remove(at: index)
            case 1: elements.append(wildValue(depth: 3))
            case 2: elements[index] = edgeNumber()
            default: elements[index] = mutatedNode(elements[index], depth: depth + 1)
            }
            return .array(elements)
        case .object, .array:
            return random.chance(0.5) ? .object([("bogus", .int(1))]) : wildValue(depth: 3)
        default:
            return random.chance(0.5) ? edgeNumber() : wildValue(depth: 3)
        }
    }
}
