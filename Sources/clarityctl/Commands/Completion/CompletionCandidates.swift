import ControlProtocol

/// What the shell may complete next, from the command registry (command words, each command's
/// options) and, where the daemon knows better, from the running daemon: device names after
/// `--device`, apps after `--app`, intents after `intent`, event types after `event`. A daemon
/// that is not running (or silent for ``DaemonCatalog/helpTimeout`` s) just completes less.
struct CompletionCandidates {
    /// The words already typed after `clarityctl`, and the one being typed.
    let words: [String]
    let current: String
    /// Asks the daemon; nil when it cannot be reached.
    let daemon: (_ method: Method) -> JSONValue?

    static let globalOptions = ["--socket", "--device", "--timeout", "--json", "--help", "--version", "--standalone"]
    /// Global options that take a value (the next word is theirs, not a command word).
    static let valuedOptions: Set<String> = ["--socket", "--device", "--timeout"]

    /// The candidates that start with ``current``, sorted, each once.
    var candidates: [String] {
        Array(Set(all.filter { $0.hasPrefix(current) })).sorted()
    }

    private var all: [String] {
        switch words.last {
        case "--device": return deviceNames
        case "--app", "--apps": return appNames
        case "--socket", "--timeout", "--path", "--out", "--junit": return []
        default: break
        }
        let commandWords = words.enumerated().filter { index, word in
            !word.hasPrefix("-") && !(index > 0 && Self.valuedOptions.contains(words[index - 1]))
        }.map(\.element)
        let commands = CommandRegistry.commands.map { $0.help }
        // Every way to name a command: its words and its aliases (`daemon status` for `status`).
        let names = commands.flatMap { [$0.words] + $0.aliases }
        if current.hasPrefix("-") {
            let command = commands.last { help in commandWords.starts(with: help.words) }
            return Self.globalOptions + (command.map(Self.options(of:)) ?? [])
        }
        guard let first = commandWords.first else { return names.map { $0[0] } }
        if commandWords.count == 1 {
            let verbs = names.filter { $0.count == 2 && $0[0] == first }.map { $0[1] }
            if !verbs.isEmpty { return verbs }
            switch first {
            case "intent": return intentNames
            case "event": return eventTypes
            default: return []
            }
        }
        // `device remove NAME`, `device state NAME`: a device's name.
        if commandWords.count == 2, first == "device", ["remove", "state", "config"].contains(commandWords[1]) {
            return deviceNames
        }
        return []
    }

    /// Every `--option` a command's synopsis and help page name.
    static func options(of help: CommandHelp) -> [String] {
        let text = ([help.synopsis] + help.details).joined(separator: " ")
        return text.split(whereSeparator: { " [](),=|".contains($0) }).map(String.init).filter {
            $0.hasPrefix("--") && $0.count > 2 && $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" }
        }
    }

    private var deviceNames: [String] {
        (daemon(.deviceList)?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    private var catalog: DaemonCatalog? { daemon(.daemonCatalog).map(DaemonCatalog.init) }

    private var appNames: [String] { catalog?.apps.filter(\.available).map(\.name) ?? [] }

    private var intentNames: [String] { catalog?.apps.flatMap { $0.intents.map(\.name) } ?? [] }

    private var eventTypes: [String] { catalog?.events ?? EventSend.knownTypes }
}
