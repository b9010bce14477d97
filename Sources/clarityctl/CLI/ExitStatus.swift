/// clarityctl's exit statuses; scripts rely on them.
enum ExitStatus: Int32 {
    /// The command succeeded.
    case success = 0
    /// The daemon answered with a JSON-RPC error (or bench saw failed responses, or a scenario
    /// failed: ``ScenarioFailed``).
    case daemonError = 1
    /// The command line was wrong.
    case usage = 2
    /// clarityd could not be reached, or the connection broke.
    case unreachable = 3
    /// Ctrl-C (SIGINT) stopped the command, which still reported what it had done
    /// (``Interrupted``): 128 + SIGINT, as a shell reports a program SIGINT ended.
    case interrupted = 130
}
