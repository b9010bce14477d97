import ControlProtocol
import Foundation

/// `clarityctl completion bash|zsh|fish`: prints the shell's completion script. The script asks
/// `clarityctl __complete WORDS… -- CURRENT` at each Tab (``CompletionCandidates``), so command
/// words and options follow the command registry of the clarityctl on the PATH, and device
/// names, apps, intents and event types come from the running daemon.
struct CompletionScript: ClarityCommand {
    static let help = CommandHelp(
        words: ["completion"], synopsis: "bash|zsh|fish",
        abstract: "print the shell completion script",
        details: [
            "  bash: source <(clarityctl completion bash)        (or save it in ~/.local/share/bash-completion/completions/clarityctl)",
            "  zsh:  clarityctl completion zsh > \"${fpath[1]}/_clarityctl\"",
            "  fish: clarityctl completion fish > ~/.config/fish/completions/clarityctl.fish",
            "Commands and options are completed from this clarityctl; device names (--device), apps (--app),",
            "intents and event types from the running daemon, when one answers within 3 s.",
        ])

    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    let shell: Shell

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let word = try arguments.positional("SHELL (bash, zsh or fish)")
        guard let shell = Shell(rawValue: word) else {
            throw UsageError("completion: unknown shell '\(word)' (bash, zsh or fish)")
        }
        self.shell = shell
    }

    func run(in session: Session) throws {
        print(Self.script(for: shell), terminator: "")
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash:
            """
            # clarityctl completion for bash: source <(clarityctl completion bash)
            _clarityctl() {
              local cur="${COMP_WORDS[COMP_CWORD]}" IFS=$'\\n'
              COMPREPLY=($(clarityctl __complete "${COMP_WORDS[@]:1:COMP_CWORD-1}" -- "$cur" 2>/dev/null))
              if [ ${#COMPREPLY[@]} -eq 0 ]; then COMPREPLY=($(compgen -f -- "$cur")); fi
            }
            complete -F _clarityctl clarityctl

            """
        case .zsh:
            """
            #compdef clarityctl
            # clarityctl completion for zsh: clarityctl completion zsh > "${fpath[1]}/_clarityctl"
            _clarityctl() {
              local -a candidates
              candidates=("${(@f)$(clarityctl __complete "${(@)words[2,CURRENT-1]}" -- "${words[CURRENT]}" 2>/dev/null)}")
              if (( ${#candidates} )) && [[ -n "${candidates[1]}" ]]; then
                compadd -- "${candidates[@]}"
              else
                _files
              fi
            }
            compdef _clarityctl clarityctl

            """
        case .fish:
            """
            # clarityctl completion for fish: clarityctl completion fish > ~/.config/fish/completions/clarityctl.fish
            function __clarityctl_complete
                set -l words (commandline -opc)
                set -e words[1]
                clarityctl __complete $words -- (commandline -ct) 2>/dev/null
            end
            complete -c clarityctl -f -a '(__clarityctl_complete)'

            """
        }
    }

    /// `clarityctl __complete WORDS… -- CURRENT`: the candidates, one a line (what the scripts
    /// call; not a command of its own in `--help`).
    static func complete(_ commandLine: [String], environment: [String: String]) -> ExitStatus {
        let separator = commandLine.lastIndex(of: "--")
        let words = Array(commandLine[..<(separator ?? commandLine.endIndex)])
        let current = separator.map { commandLine[(commandLine.index(after: $0))...].first ?? "" } ?? ""
        // The words may end in an option still missing its value (`--device`): read `--socket`
        // alone rather than parse them all.
        let given = words.firstIndex(of: "--socket").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
        let socketPath = given ?? SocketPath.fromEnvironment(environment) ?? SocketPath.defaultPath(environment: environment)
        let candidates = CompletionCandidates(words: words, current: current) { method in
            guard let client = try? ClarityClient(socketPath: socketPath, idleTimeout: DaemonCatalog.helpTimeout) else { return nil }
            return try? client.call(method.rawValue, params: nil)
        }
        for candidate in candidates.candidates { print(candidate) }
        return .success
    }
}
