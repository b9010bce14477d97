/// Every clarityctl command, in the order `--help` lists them, and the lookup from words to command.
enum CommandRegistry {
    static var commands: [any ClarityCommand.Type] {
        [
            DaemonPing.self, DaemonStatus.self, DaemonShutdown.self,
            DeviceCreate.self, DeviceList.self, DeviceRemove.self, DeviceState.self, DeviceConfig.self,
            EventSend.self, ClockAdvance.self, ClockNow.self, IntentRun.self,
            StoreGet.self, StoreSet.self, StoreRemove.self, StoreDump.self,
            ShieldsGet.self, ShieldConfigGet.self, NotificationsList.self, SandboxList.self, TraceGet.self,
            ActivityStart.self, ActivityStop.self, ActivityList.self,
            RawCall.self, BenchRun.self,
        ]
    }

    /// Where the command words led.
    enum Lookup {
        case command(any ClarityCommand.Type)
        /// A group word (`store`) without a known verb; `verb` is the unknown one, if any.
        case group(String, verb: String?)
    }

    /// Resolves the leading command words of `arguments`, consuming them.
    static func lookup(_ arguments: inout Arguments) throws -> Lookup? {
        guard let first = arguments.commandWord() else { return nil }
        if let command = commands.first(where: { $0.help.words == [first] }) {
            return .command(command)
        }
        guard commands.contains(where: { $0.help.words.first == first && $0.help.words.count == 2 }) else {
            throw UsageError("unknown command '\(first)'")
        }
        guard let verb = arguments.commandWord() else { return .group(first, verb: nil) }
        if let command = commands.first(where: { $0.help.words == [first, verb] }) {
            return .command(command)
        }
        return .group(first, verb: verb)
    }

    /// The commands whose first word is `group`.
    static func members(of group: String) -> [any ClarityCommand.Type] {
        commands.filter { $0.help.words.first == group }
    }
}
