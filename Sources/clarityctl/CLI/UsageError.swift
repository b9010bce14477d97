/// A command line clarityctl cannot understand (exit status 2). The message names the bad
/// argument or option; `command` (e.g. `store get`) points the `--help` hint at the right page.
struct UsageError: Error, Sendable {
    var message: String
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The help hint printed under the message.
    var hint: String {
        if let command { return "Run 'clarityctl \(command) --help' for usage." }
        return "Run 'clarityctl --help' for usage."
    }
}
