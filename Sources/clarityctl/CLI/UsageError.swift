/// A command line clarityctl cannot understand (exit status 2). The message names the bad
/// argument or option; `page` points the `--help` hint at the right page.
struct UsageError: Error, Sendable {
    /// The help page a hint points at.
    enum Page: Sendable, Equatable {
        case overview
        /// The page of a command or a group, by its words: `store get`, `store`.
        case command(String)
    }

    var message: String
    /// Nil until ``FailureReport`` fills in the command being run; the overview when there is none.
    var page: Page?

    init(_ message: String, page: Page? = nil) {
        self.message = message
        self.page = page
    }

    /// The help hint printed under the message.
    var hint: String {
        if case .command(let command)? = page { return "Run 'clarityctl \(command) --help' for usage." }
        return "Run 'clarityctl --help' for usage."
    }
}
