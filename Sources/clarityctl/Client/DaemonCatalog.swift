import ControlProtocol

/// What `daemon.catalog` tells: the apps the protocol names, each available one with its
/// intents, and the event types. Help pages show it. Read leniently: members clarityctl does not
/// know are ignored, missing ones are empty.
struct DaemonCatalog: Sendable {
    struct Intent: Sendable {
        let name: String
        /// How its arguments are written, e.g. `apps=[bundle ids] [categories=[names]]`; may be empty.
        let arguments: String
    }

    struct App: Sendable {
        let name: String
        /// Whether this build simulates it; the others are coming.
        let available: Bool
        let intents: [Intent]
    }

    let apps: [App]
    let events: [String]

    init(apps: [App], events: [String]) {
        self.apps = apps
        self.events = events
    }

    init(_ result: JSONValue) {
        apps = (result["apps"]?.arrayValue ?? []).compactMap { app in
            guard let name = app["name"]?.stringValue else { return nil }
            let intents = (app["intents"]?.arrayValue ?? []).compactMap { intent in
                intent["name"]?.stringValue.map {
                    Intent(name: $0, arguments: intent["arguments"]?.stringValue ?? "")
                }
            }
            return App(name: name, available: app["available"]?.boolValue ?? false, intents: intents)
        }
        events = (result["events"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// How long a help page waits for the catalog: help should not hang on a stopped daemon.
    static let helpTimeout = 3.0

    /// The running daemon's catalog, or why there is none (``ClientError`` when it cannot be
    /// reached or stays silent for ``helpTimeout`` s — or `--timeout`, if shorter —, ``RPCError``
    /// when it refused).
    static func fetch(in session: Session) -> Result<DaemonCatalog, any Error> {
        let timeout = min(session.options.timeout ?? helpTimeout, helpTimeout)
        return Result {
            let client = try ClarityClient(socketPath: session.options.socketPath, idleTimeout: timeout)
            return DaemonCatalog(try client.call(Method.daemonCatalog.rawValue, params: nil))
        }
    }
}
