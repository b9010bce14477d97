/// One user action of an app (`intent`): its name, its arguments as a command line writes them,
/// and how it runs on `Target`, the app's main app. Arguments are decoded strictly into `Input`
/// and validated before anything runs.
public struct AppIntent<Target: Sendable>: Sendable {
    public let name: String
    /// The arguments as `clarityctl intent` takes them, for help (`apps=[bundle ids]`).
    public let arguments: String
    private let prepare: @Sendable (any IntentArguments, Target) throws(DeviceError) -> PreparedIntent

    /// An intent taking `Input` as its `args`, written `arguments` on a command line; `run` does
    /// it in the main app and returns what the app shows.
    public static func named<Input: IntentInput>(
        _ name: String, _ input: Input.Type, _ arguments: String = "",
        _ run: @escaping @Sendable (Target, Input) async throws -> any Encodable & Sendable
    ) -> AppIntent {
        AppIntent(name: name, arguments: arguments) { arguments, target throws(DeviceError) in
            let input = try arguments.decodeInput(Input.self)
            try input.validate()
            return { try await run(target, input) }
        }
    }

    /// How help and `daemon.catalog` describe it.
    public var description: IntentDescription { IntentDescription(name: name, arguments: arguments) }

    fileprivate func prepared(_ arguments: any IntentArguments, on target: Target) throws(DeviceError) -> PreparedIntent {
        try prepare(arguments, target)
    }
}

/// The intents of an app, bound to its main app: the one way user actions come in. Gives the
/// CLI, the catalog and the unknown-intent error their lists.
///
/// An app makes its table at every intent (`SimulatedApp.intents`), so the table binds nothing
/// ahead: it keeps the list and the target, and looks the one intent up when asked (binding each
/// of an app's intents to its main app, every intent, was 1 % of an exploration).
public struct IntentTable: Sendable {
    /// Every intent's name, in order.
    public var names: [String] { listNames() }
    private let listNames: @Sendable () -> [String]
    private let prepareNamed: @Sendable (String, any IntentArguments) throws(DeviceError) -> PreparedIntent?

    /// `intents`, in order, run on `target`. A name listed twice answers with the first.
    public init<Target>(_ intents: [AppIntent<Target>], on target: Target) {
        listNames = { intents.map(\.name) }
        prepareNamed = { name, arguments throws(DeviceError) in
            try intents.first { $0.name == name }?.prepared(arguments, on: target)
        }
    }

    /// No intents.
    public static let none = IntentTable([AppIntent<Never?>](), on: nil)

    /// Decodes `arguments` for `intent` and returns the work to run in the main app; throws
    /// ``DeviceError/unknownIntent(_:known:)`` or the arguments' own error before anything runs.
    public func prepare(_ intent: String, _ arguments: any IntentArguments) throws(DeviceError) -> PreparedIntent {
        guard let prepared = try prepareNamed(intent, arguments) else { throw .unknownIntent(intent, known: names) }
        return prepared
    }
}
