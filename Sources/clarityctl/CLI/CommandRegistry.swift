import ControlProtocol

/// Every clarityctl command, in the order `--help` lists them, and the lookup from words to command.
enum CommandRegistry {
    static var commands: [any ClarityCommand.Type] {
        [
            DaemonPing.self, DaemonStatus.self, DaemonShutdown.self,
            DeviceCreate.self, DeviceList.self, DeviceRemove.self, DeviceState.self, DeviceConfig.self,
            EventSend.self, ClockAdvance.self, ClockNow.self, IntentRun.self,
            StoreGet.self, StoreSet.self, StoreRemove.self, StoreDump.self,
            ShieldsGet.self, ShieldConfigGet.self, ScreenShow.self, NotificationsList.self, SandboxList.self, TraceGet.self,
            TraceExport.self, TraceWatch.self,
            ActivityStart.self, ActivityStop.self, ActivityList.self,
            ScenarioExplore.self, ScenarioCancel.self, ScenarioReplay.self, ScenarioRun.self, RecordStart.self, RecordStop.self,
            BackendList.self, BackendNow.self, BackendUsers.self, BackendEvents.self, BackendScores.self, BackendGroups.self,
            BackendLeaderboard.self, BackendSync.self, ServerList.self, ServerCall.self,
            RawCall.self, BenchRun.self, NewApp.self, CompletionScript.self, HelpShow.self,
        ]
    }

    /// Where the command words led.
    enum Lookup {
        case command(any ClarityCommand.Type)
        /// A group word (`store`) without a verb.
        case group(String)
    }

    /// Resolves the leading command words of `arguments`, consuming them. An unknown command is a
    /// usage error suggesting the nearest one: `unknown command 'stauts'; did you mean 'status'?`.
    static func lookup(_ arguments: inout Arguments) throws -> Lookup? {
        guard let word = arguments.commandWord() else { return nil }
        // A protocol method's name (`clock.now`, `device.state`) reads as its two words.
        let dotted = word.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if dotted.count == 2, !dotted[0].isEmpty, !dotted[1].isEmpty {
            return try lookup(group: dotted[0], verb: dotted[1])
        }
        let first = word
        if let command = commands.first(where: { $0.help.isNamed([first]) }) {
            // A command that is also a group (`trace`, `trace export`) takes no positionals of its own.
            if let verb = arguments.nextCommandWord, let member = commands.first(where: { $0.help.isNamed([first, verb]) }) {
                _ = arguments.commandWord()
                return .command(member)
            }
            return .command(command)
        }
        guard !members(of: first).isEmpty else {
            throw unknownCommand(first, suggestion: suggestion(for: first, then: arguments.commandWord()), page: .overview)
        }
        guard let verb = arguments.commandWord() else { return .group(first) }
        return try lookup(group: first, verb: verb)
    }

    /// The command `first verb` names, or a usage error suggesting the nearest.
    private static func lookup(group first: String, verb: String) throws -> Lookup {
        if let command = commands.first(where: { $0.help.isNamed([first, verb]) }) {
            return .command(command)
        }
        guard !members(of: first).isEmpty else {
            throw unknownCommand("\(first) \(verb)", suggestion: suggestion(for: first, then: verb), page: .overview)
        }
        let verbs = members(of: first).compactMap { command in
            ([command.help.words] + command.help.aliases).first { $0.count == 2 && $0[0] == first }?[1]
        }
        let suggestion = Spelling.nearest(to: verb, among: verbs).map { "\(first) \($0)" }
        throw unknownCommand("\(first) \(verb)", suggestion: suggestion, page: .command(first))
    }

    /// The commands of a group: those of two words whose first is `group`, by name or alias.
    static func members(of group: String) -> [any ClarityCommand.Type] {
        commands.filter { command in
            ([command.help.words] + command.help.aliases).contains { $0.count == 2 && $0.first == group }
        }
    }

    /// The command nearest an unknown first word, with the group's verb when `next` is one of
    /// them (`devcie list` → `device list`).
    private static func suggestion(for word: String, then next: String?) -> String? {
        var firstWords: [String] = []
        for command in commands where !firstWords.contains(command.help.words[0]) {
            firstWords.append(command.help.words[0])
        }
        guard let nearest = Spelling.nearest(to: word, among: firstWords) else { return nil }
        if let next, commands.contains(where: { $0.help.words == [nearest, next] }) { return "\(nearest) \(next)" }
        return nearest
    }

    private static func unknownCommand(_ words: String, suggestion: String?, page: UsageError.Page) -> UsageError {
        let question = suggestion.map { "; did you mean '\($0)'?" } ?? ""
        return UsageError("unknown command '\(words)'\(question)", page: page)
    }
}
