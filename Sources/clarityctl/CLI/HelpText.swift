import ControlProtocol

/// The text of `clarityctl --help`, of a command group's help and of each command's own page.
enum HelpText {
    static let globalOptions = [
        "  --socket PATH      the daemon's socket (default: $CLARITYD_SOCKET, else \(SocketPath.defaultPath()))",
        "  --device NAME      the device to address (default: default)",
        "  --json             print the result (or the error) as JSON (indented on a terminal, one line otherwise)",
        "  --timeout SECONDS  give up when clarityd sends nothing for that long (default 60, none for explore,",
        "                     replay and run; 0 waits forever)",
        "  -h, --help         show help; after a command, that command's help",
        "  --version          print clarityctl's version",
    ]

    static let exitStatuses = [
        "Exit status: 0 ok, 1 the daemon answered with an error, 2 usage error, 3 clarityd unreachable or silent.",
        "Values written NAME=VALUE (and store values) are JSON when they parse as JSON, else strings:",
        "  enabled=true  minutes=25  apps='[\"com.burbn.instagram\"]'  ssid=Home  label='\"42\"'",
    ]

    static var overview: String {
        let commands = CommandRegistry.commands.map { $0.help }
        let width = commands.map(\.name.count).max() ?? 0
        var lines = ["Usage: clarityctl [global options] COMMAND [arguments]", "", "Commands:"]
        lines += commands.map { "  " + PlainText.padded($0.name, to: width) + "  " + $0.abstract }
        lines += ["", "Run 'clarityctl help COMMAND' (or 'clarityctl COMMAND --help') for a command's arguments and options.", ""]
        lines += ["Global options (anywhere on the line):"] + globalOptions + [""] + exitStatuses
        return lines.joined(separator: "\n")
    }

    /// What `help` and `--help` print for the command words looked up: the overview when there
    /// were none, a group's commands, or a command's page (which may ask the daemon, see
    /// ``ClarityCommand/helpPage(in:)``).
    static func text(for topic: CommandRegistry.Lookup?, in session: Session) -> String {
        switch topic {
        case nil: overview
        case .group(let group)?: self.group(group)
        case .command(let command)?: page(for: command.helpPage(in: session))
        }
    }

    static func page(for help: CommandHelp) -> String {
        var lines = ["Usage: clarityctl \(help.usage)", "", help.abstract]
        if !help.details.isEmpty { lines += [""] + help.details }
        lines += ["", "Global options:"] + globalOptions
        return lines.joined(separator: "\n")
    }

    /// `items` separated by commas after `prefix`, wrapped before `width` characters, further
    /// lines indented under the first item.
    static func wrapped(_ items: [String], after prefix: String, width: Int = 96) -> [String] {
        var lines: [String] = []
        var line = prefix
        for (index, item) in items.enumerated() {
            let text = item + (index == items.count - 1 ? "" : ",")
            if line.count > prefix.count, line.count + 1 + text.count > width {
                lines.append(line)
                line = String(repeating: " ", count: prefix.count) + text
            } else {
                line += (line.count > prefix.count ? " " : "") + text
            }
        }
        return lines + [line]
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
