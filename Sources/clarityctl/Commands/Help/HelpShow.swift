/// `clarityctl help [COMMAND ...]`: the usage overview, a group's commands or a command's page,
/// as `--help` shows them.
struct HelpShow: ClarityCommand {
    static let help = CommandHelp(
        words: ["help"], synopsis: "[COMMAND ...]",
        abstract: "show this overview, or a command's help (the same as COMMAND --help)",
        details: ["Examples:", "  clarityctl help store get", "  clarityctl help intent"])

    private let topic: CommandRegistry.Lookup?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var words = Arguments(arguments.remainingPositionals())
        topic = try CommandRegistry.lookup(&words)
        try words.finish()
    }

    func run(in session: Session) throws {
        print(HelpText.text(for: topic, in: session))
    }
}
