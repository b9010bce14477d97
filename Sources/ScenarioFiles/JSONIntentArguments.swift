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
}
