import JSONValues
@_spi(Host) import SimulatediOS

/// An intent's `args` as JSON (a request's, a scenario file's, a test's), decoded strictly into
/// the type the intent declares: an unknown, missing or ill-typed member is refused naming its
/// path (`args.apps[0]`).
public struct JSONIntentArguments: IntentArguments {
    public let value: JSONValue

    public init(value: JSONValue) {
        self.value = value
    }

    public func decode<T: Decodable>(_ type: T.Type) throws(DeviceError) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: value, root: "args")
        } catch let error as FieldError {
            throw .invalidArgument(field: error.field, reason: error.reason)
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .invalidArgument(field: "args", reason: "\(error)")
        }
    }

    /// An intent's input decoded once per process for the same type and JSON: every schedule of
    /// an exploration sends the scenario's intents again, and decoding them each time was 3.4 %
    /// of Clarity's (docs/performance.md). Arguments that fail to decode are not remembered, nor
    /// large ones: clients send the daemon arguments of up to a request's size, and 256
    /// remembered megabyte lists would hold a quarter of a gigabyte.
    public func decodeInput<Input: IntentInput>(_ type: Input.Type) throws(DeviceError) -> Input {
        var budget = Self.largestRemembered
        guard Self.fits(value, in: &budget) else { return try decode(type) }
        let decoded = try Self.decodedInputs.value(for: DecodedInput(type: ObjectIdentifier(type), arguments: value)) {
            (_) throws(DeviceError) -> any Sendable in try decode(type)
        }
        // The key names the type, so the value remembered for it is of that type.
        return decoded as! Input
    }

    private static let decodedInputs = SharedMemo<DecodedInput, any Sendable>(capacity: 256)

    /// The largest arguments remembered, in values and string bytes (a scenario's are a few dozen).
    private static let largestRemembered = 1_024

    /// Whether `value` holds at most `budget` values and string bytes; stops counting past it.
    private static func fits(_ value: JSONValue, in budget: inout Int) -> Bool {
        budget -= 1
        switch value {
        case .string(let string): budget -= string.utf8.count
        case .array(let values): return budget >= 0 && values.allSatisfy { fits($0, in: &budget) }
        case .object(let members):
            return budget >= 0 && members.allSatisfy { member in
                budget -= member.key.utf8.count
                return fits(member.value, in: &budget)
            }
        case .null, .bool, .int, .double: break
        }
        return budget >= 0
    }

    /// What an input is decoded from: its type and the JSON.
    private struct DecodedInput: Hashable, Sendable {
        let type: ObjectIdentifier
        let arguments: JSONValue
    }
}
