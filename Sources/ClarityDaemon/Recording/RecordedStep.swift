import ControlProtocol
import DeviceActors
@_spi(Host) import SimulatediOS

/// One request a recorded device received, as the scenario step that gives it again
/// (docs/scenarios.md, Recording a session): an `event`, an `intent` or an `advance`, with
/// `fails` when it failed yet changed the device. Encodes as scenario files write the step.
struct RecordedStep: Encodable, Sendable {
    /// What the device received.
    enum Input: Sendable {
        /// The `event` method's params without `device`: the event as an `event` step takes it.
        case event(JSONValue)
        case intent(IntentStep)
        /// `clock.advance`'s seconds.
        case advance(Double)
    }

    /// An `intent` step's object: `name`, `args` and (several apps installed) `app`, as the
    /// `intent` method takes them.
    struct IntentStep: Encodable, Sendable {
        let name: String
        let args: JSONValue
        let app: String?
    }

    let input: Input
    /// How the request failed, when it did.
    let failure: InputFailure?

    init(input: Input, failure: InputFailure?) {
        self.input = input
        self.failure = failure
    }

    /// The step of a request that changed the device (its params as it was made, or as the
    /// journal keeps them); nil when no scenario step expresses its method (`store.set`,
    /// `device.config`, `activity.start` …).
    init?(method: String, params: JSONValue?, failure: InputFailure?) throws(RPCError) {
        switch Method(rawValue: method) {
        case .event?:
            var fields = params?.objectValue ?? [:]
            fields["device"] = nil
            input = .event(.object(fields))
        case .intent?:
            let intent = try decodeParams(IntentParams.self, params)
            input = .intent(IntentStep(name: intent.name, args: intent.args ?? .object([:]), app: intent.app))
        case .clockAdvance?:
            input = .advance(try decodeParams(AdvanceParams.self, params).seconds)
        default:
            return nil
        }
        self.failure = failure
    }

    private enum Key: String, CodingKey { case event, intent, advance, fails }
    private enum FailsKey: String, CodingKey { case refused, invalidArgument }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        switch input {
        case .event(let event): try fields.encode(event, forKey: .event)
        case .intent(let intent): try fields.encode(intent, forKey: .intent)
        case .advance(let seconds): try fields.encode(seconds, forKey: .advance)
        }
        guard let failure else { return }
        var fails = fields.nestedContainer(keyedBy: FailsKey.self, forKey: .fails)
        switch failure {
        case .refused(let reason): try fails.encode(reason, forKey: .refused)
        case .invalidArgument(let field): try fails.encode(field, forKey: .invalidArgument)
        }
    }
}
