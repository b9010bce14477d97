import ControlProtocol

/// The text of `clarityctl --help`, of a command group's help and of each command's own page.
enum HelpText {
    static let globalOptions = [
        "  --socket PATH      the daemon's socket (default: $CLARITYD_SOCKET, else \(SocketPath.defaultPath()))",
        "  --device NAME      the device to address (default: default)",
        "  --json             print the result as JSON (indented on a terminal, one line otherwise)",
        "  --timeout SECONDS  give up when clarityd sends nothing for that long (default 60; 0 waits forever)",
        "  -h, --help         show help; after a command, that command's help",
        "  --version          print clarityctl's version",
    ]

    static let exitStatuses = [
        "Exit status: 0 ok, 1 the daemon answered with an error, 2 usage error, 3 cannot reach clarityd.",
        "Values written NAME=VALUE (and store values) are JSON when they parse as JSON, else strings:",
        "  enabled=true  minutes=25  apps='[\"com.burbn.instagram\"]'  ssid=Home  label='\"42\"'",
    ]

    static var overview: String {
        let commands = CommandRegistry.commands.map { $0.help }
        let width = commands.map(\.name.count).max() ?? 0
        var lines = ["Usage: clarityctl [global options] COMMAND [arguments]", "", "Commands:"]
        lines += commands.map { "  " + PlainText.padded($0.name, to: width) + "  " + $0.abstract }
        lines += ["", "Run 'clarityctl COMMAND --help' for a command's arguments and options.", ""]
        lines += ["Global options (anywhere on the line):"] + globalOptions + [""] + exitStatuses
        return lines.joined(separator: "\n")
    }

    static func page(for help: CommandHelp) -> String {
        var lines = ["Usage: clarityctl \(help.usage)", "", help.abstract]
        if !help.details.isEmpty { lines += [""] + help.details }
        lines += ["", "Global options:"] + globalOptions
        return lines.joined(separator: "\n")
    }

    /// A group's commands, each as its usage line with the abstract indented below it.
    static func group(_ group: String) -> String {
        var lines = ["Usage: clarityctl \(group) COMMAND", "", "Commands:"]
        for member in CommandRegistry.members(of: group) {
            lines += ["  " + member.help.usage, "      " + member.help.abstract]
        }
        return lines.joined(separator: "\n")
    }
}
