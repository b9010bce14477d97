import ControlProtocol
import Testing

@testable import clarityctl

/// `clarityctl completion` and the candidates its scripts ask `clarityctl __complete` for: the
/// command registry's words and options, and the running daemon's devices, apps, intents and
/// event types (none when no daemon answers).
@Suite struct CompletionTests {
    /// A daemon with two devices and the catalog of one app.
    private let daemon: (Method) -> JSONValue? = { method in
        switch method {
        case .deviceList: [["name": "default"], ["name": "lab"]]
        case .daemonCatalog:
            [
                "apps": [["name": "clarity", "available": true, "intents": [["name": "selectApps"], ["name": "setup.begin"]]]],
                "events": ["lock", "web.open"],
            ]
        default: nil
        }
    }

    private func candidates(_ words: [String], _ current: String, daemon: ((Method) -> JSONValue?)? = nil) -> [String] {
        CompletionCandidates(words: words, current: current, daemon: daemon ?? self.daemon).candidates
    }

    @Test func commandWordsAndVerbsComeFromTheRegistry() {
        #expect(candidates([], "st") == ["status", "store"])
        #expect(candidates(["store"], "") == ["dump", "get", "remove", "set"])
        #expect(candidates(["--socket", "/tmp/x.sock", "trace"], "") == ["export", "get"], "an option's value is not a command word")
        #expect(candidates(["daemon"], "s") == ["shutdown", "status"], "aliases name commands too")
        #expect(candidates([], "").contains("completion"))
    }

    @Test func optionsAreTheCommandsOwnAndTheGlobalOnes() {
        let options = candidates(["store", "get"], "--")
        #expect(options.contains("--suite") && options.contains("--device") && options.contains("--json"))
        #expect(!candidates(["device", "create"], "--").contains("--suite"))
        #expect(candidates(["device", "create"], "--a") == ["--app", "--apps"])
    }

    @Test func namesComeFromTheRunningDaemon() {
        #expect(candidates(["state", "--device"], "") == ["default", "lab"])
        #expect(candidates(["device", "remove"], "l") == ["lab"])
        #expect(candidates(["device", "create", "x", "--app"], "") == ["clarity"])
        #expect(candidates(["intent"], "s") == ["selectApps", "setup.begin"])
        #expect(candidates(["event"], "") == ["lock", "web.open"])
    }

    @Test func withoutADaemonOnlyTheRegistryAnswers() {
        let none: (Method) -> JSONValue? = { _ in nil }
        #expect(candidates(["state", "--device"], "", daemon: none) == [])
        #expect(candidates(["event"], "web", daemon: none) == ["web.close", "web.open"], "this build's event types")
    }

    @Test func eachShellGetsAScriptThatAsksClarityctl() throws {
        for shell in CompletionScript.Shell.allCases {
            #expect(CompletionScript.script(for: shell).contains("clarityctl __complete"), "\(shell)")
        }
        #expect(CompletionScript.script(for: .bash).contains("complete -F _clarityctl clarityctl"))
        #expect(CompletionScript.script(for: .zsh).hasPrefix("#compdef clarityctl"))
        #expect(CompletionScript.script(for: .fish).contains("complete -c clarityctl"))
        var arguments = Arguments(["tcsh"])
        #expect(throws: UsageError.self) { try CompletionScript(arguments: &arguments, options: GlobalOptions.extract(from: &arguments, environment: [:])) }
    }
}
