/// Ctrl-C stopped a command that handles it (`explore`), after it showed what it had done:
/// exit status 130, `message` on stderr; with `--json` nothing more (the result printed says it).
struct Interrupted: Error, Sendable {
    /// What was stopped and how to go on, e.g. `explore: interrupted (Ctrl-C) after 412 schedules; …`.
    let message: String
}
