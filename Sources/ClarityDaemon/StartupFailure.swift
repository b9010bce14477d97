/// Why the daemon cannot start, and the exit status that says so:
/// 2 for a usage or configuration mistake, 1 for anything found at run time.
struct StartupFailure: Error, CustomStringConvertible {
    let message: String
    let exitStatus: Int32

    /// A bad command line or config file (exit 2).
    static func usage(_ message: String) -> StartupFailure {
        StartupFailure(message: message, exitStatus: 2)
    }

    /// The environment refused: socket taken, directory unsafe, devices failed to load (exit 1).
    static func runtime(_ message: String) -> StartupFailure {
        StartupFailure(message: message, exitStatus: 1)
    }

    var description: String { message }
}
