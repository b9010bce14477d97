import ControlProtocol

/// What `--help` shows for a command, and the words that select it.
struct CommandHelp: Sendable {
    /// The words after `clarityctl`, e.g. `["store", "get"]`.
    var words: [String]
    /// The arguments after the words, e.g. `KEY [--suite S]`.
    var synopsis: String
    /// One line for the command list.
    var abstract: String
    /// Further lines for the command's own page: options, value formats, examples.
    var details: [String] = []
    /// Other words that name the command, such as the protocol method's own (`clock now` for
    /// `now`); `clarityctl clock.now` is read as `clarityctl clock now`.
    var aliases: [[String]] = []

    /// Whether `words` name this command.
    func isNamed(_ words: [String]) -> Bool { self.words == words || aliases.contains(words) }

    var name: String { words.joined(separator: " ") }
    /// The name and the synopsis: `store get KEY [--suite S]`.
    var usage: String { synopsis.isEmpty ? name : name + " " + synopsis }
}

/// A subcommand of clarityctl: parsed from the words after its name, then run.
protocol ClarityCommand {
    static var help: CommandHelp { get }
    /// The help its page shows: ``help`` plus what only the running daemon can tell (the intents
    /// of its apps, its event types). ``help`` as it is unless a command says otherwise.
    static func helpPage(in session: Session) -> CommandHelp
    /// Parses the command's own options and arguments; global options are already taken out.
    init(arguments: inout Arguments, options: GlobalOptions) throws
    func run(in session: Session) throws
}

/// A command that is one request to the daemon: a method, its params and a way to show the result.
protocol RequestCommand: ClarityCommand {
    /// The method's wire name: one of the protocol's (``MethodCommand``), or one a registered
    /// server answers to (`backend.users`).
    var methodName: String { get }
    var params: JSONValue? { get }
    var presentation: Presentation { get }
}

/// A request command whose method is one of the protocol's own.
protocol MethodCommand: RequestCommand {
    var method: Method { get }
}

extension MethodCommand {
    var methodName: String { method.rawValue }
}

extension ClarityCommand {
    static func helpPage(in session: Session) -> CommandHelp { help }
}

extension RequestCommand {
    var presentation: Presentation { .generic }

    func run(in session: Session) throws {
        let result = try session.call(methodName, params: params)
        session.output.show(result, as: presentation)
    }
}
