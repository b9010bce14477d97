/// The daemon's command line. Every flag but `--help` and `--version` overrides the config file.
struct CommandLineOptions: Equatable {
    var configPath: String?
    var socket: String?
    var stateDir: String?
    var logLevel: LogLevel?
    /// `--lifeline`: stop when standard input reaches its end (``Lifeline``).
    var lifeline = false
    /// `--remove-at-exit DIR`: a private daemon's directory, removed when it stops.
    var removeAtExit: String?

    /// What the command line asks for.
    enum Action: Equatable {
        case run(CommandLineOptions)
        case help
        case version
    }

    static let usage = """
        usage: clarityd [options]

        Simulates an iPhone running a Screen Time app and serves it over a Unix socket (JSON-RPC 2.0).

        options:
          --config PATH       config file (default: config/clarityd.json in the current directory;
                              built-in defaults when that file is missing)
          --socket PATH       socket to listen on (default: $CLARITYD_SOCKET, else the config's
                              socket, else $XDG_RUNTIME_DIR/clarityd.sock, else
                              /tmp/clarityd-<uid>/clarityd.sock)
          --state-dir PATH    where device state is kept (default: $XDG_STATE_HOME/clarityd,
                              else ~/.local/state/clarityd)
          --log-level LEVEL   debug, info, warning or error (default: info)
          --lifeline          stop, as on SIGTERM, when standard input reaches its end: for a
                              daemon private to the program that started it, which holds the
                              other end of a pipe (clarityctl --standalone), so that the daemon
                              never outlives it, even when it is killed with SIGKILL
          --remove-at-exit DIR
                              remove DIR and everything in it when the daemon stops; DIR must be
                              the directory of both the socket and the state directory (a private
                              daemon's own temporary directory)
          --help              show this text and exit
          --version           print the version and exit

        """

    /// Parses the arguments after the program name. Accepts `--flag value` and `--flag=value`.
    static func parse(_ arguments: [String]) throws(StartupFailure) -> Action {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (flag, inlineValue) = split(argument)
            func value() throws(StartupFailure) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw .usage("missing value for \(flag)")
                }
                return next
            }
            switch flag {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--config": options.configPath = try value()
            case "--socket": options.socket = try value()
            case "--state-dir": options.stateDir = try value()
            case "--lifeline": options.lifeline = true
            case "--remove-at-exit": options.removeAtExit = try value()
            case "--log-level":
                let name = try value()
                guard let level = LogLevel(rawValue: name) else {
                    throw .usage("invalid --log-level \(name): expected debug, info, warning or error")
                }
                options.logLevel = level
            default:
                if flag.hasPrefix("-") { throw .usage("unknown flag \(flag) (see --help)") }
                throw .usage("unexpected argument \(argument) (see --help)")
            }
        }
        return .run(options)
    }

    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
