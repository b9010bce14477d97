import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// One request a recorded device received, as the scenario step that gives it again
/// (docs/scenarios.md, Recording a session): an `event`, an `intent` or an `advance`, with
/// `fails` when it failed yet changed the device.
///
/// The input is kept encoded, once, as the step's member spells it: a recording holds bytes,
/// not a tree of values several times their size (150 `contacts.set` of 1 MB each held 830 MB
/// as values), and its scenario is written by copying them (``write(to:)``).
struct RecordedStep: Sendable {
    /// The step's member: what the device received.
    enum Kind: String, Sendable {
        /// The `event` method's params without `device`: the event as an `event` step takes it.
        case event
        /// `name`, `args` and (several apps installed) `app`, as the `intent` method takes them.
        case intent
        /// `clock.advance`'s seconds.
        case advance
    }

    let kind: Kind
    /// The input as ``JSONWire`` encodes it: the event's object, the intent's, or the seconds.
    let input: [UInt8]
    /// Virtual time the step moves the device: an `advance`'s seconds, else 0.
    let seconds: Double
    /// How the request failed, when it did.
    private(set) var failure: InputFailure?
    /// The `fails` member, `"fails":{…}`, as ``JSONWire`` writes it; empty without a failure.
    private var fails: [UInt8] = []

    /// The step of a request (its params as it was made, or as the journal keeps them); nil
    /// when no scenario step expresses its method (`store.set`, `device.config`,
    /// `activity.start` …).
    init?(method: String, params: JSONValue?) throws(RPCError) {
        switch Method(rawValue: method) {
        case .event?:
            var fields = params?.objectValue ?? [:]
            fields["device"] = nil
            (kind, seconds) = (.event, 0)
            input = try Self.encoded(.object(fields))
        case .intent?:
            let intent = try decodeParams(IntentParams.self, params)
            var fields: [String: JSONValue] = ["name": .string(intent.name), "args": intent.args ?? .object([:])]
            fields["app"] = intent.app.map(JSONValue.string)
            (kind, seconds) = (.intent, 0)
            input = try Self.encoded(.object(fields))
        case .clockAdvance?:
            let seconds = try decodeParams(AdvanceParams.self, params).seconds
            (kind, self.seconds) = (.advance, seconds)
            input = try Self.encoded(.double(seconds))
        default:
            return nil
        }
    }

    /// The step, failed as `failure` says.
    func failing(_ failure: InputFailure?) -> RecordedStep {
        var step = self
        step.failure = failure
        step.fails = []
        if let failure {
            let (key, name) =
                switch failure {
                case .refused(let reason): ("refused", reason)
                case .invalidArgument(let field): ("invalidArgument", field)
                }
            var output = JSONOutput()
            output.write(name)
            step.fails = Array("\"fails\":{\"\(key)\":".utf8) + output.bytes + [UInt8(ascii: "}")]
        }
        return step
    }

    /// The bytes ``write(to:)`` appends.
    var byteCount: Int {
        kind.rawValue.utf8.count + 5 + input.count + (fails.isEmpty ? 0 : fails.count + 1)
    }

    /// Appends the step as ``JSONWire`` writes a scenario's step, its members sorted:
    /// `{"event":…}`, `{"advance":…,"fails":…}`, `{"fails":…,"intent":…}`.
    func write(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        if kind == .intent, !fails.isEmpty { bytes += fails + [UInt8(ascii: ",")] }
        bytes += Array("\"\(kind.rawValue)\":".utf8)
        bytes += input
        if kind != .intent, !fails.isEmpty { bytes += [UInt8(ascii: ",")] + fails }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func encoded(_ value: JSONValue) throws(RPCError) -> [UInt8] {
        do {
            return try JSONWire.bytes(value)
        } catch {
            throw RPCError.invalidParams(field: "params", reason: "cannot be written as a scenario step: \(error)")
        }
    }
}
