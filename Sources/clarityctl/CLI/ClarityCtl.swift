import ControlProtocol
import Foundation

/// The program: parses the command line, runs the command and turns every failure into its
/// ``FailureReport``: the message on stderr, or with `--json` the error object on stdout, and
/// its ``ExitStatus``. Without a command it prints the usage overview.
enum ClarityCtl {
    static func main(_ commandLine: [String], environment: [String: String]) -> ExitStatus {
        if commandLine.first == "__complete" {
            return CompletionScript.complete(Array(commandLine.dropFirst()), environment: environment)
        }
        var commandName: String?
        // Until the options are parsed (they may be what is wrong), `--json` anywhere before `--` counts.
        var json = commandLine.prefix { $0 != "--" }.contains("--json")
        do {
            var arguments = Arguments(commandLine)
            let options = try GlobalOptions.extract(from: &arguments, environment: environment)
            json = options.json
            if options.version {
                print("clarityctl \(ClarityProtocol.version)")
                return .success
            }
            let session = Session(options: options)
            switch try CommandRegistry.lookup(&arguments) {
            case nil:
                if !options.help, let option = arguments.firstOption { throw UsageError("unknown option '\(option)'") }
                print(HelpText.overview)
                return .success
            case .group(let group)?:
                commandName = group
                if options.help {
                    print(HelpText.group(group))
                    return .success
                }
                throw UsageError("'\(group)' needs a command")
            case .command(let command)?:
                commandName = command.help.name
                if options.help {
                    print(HelpText.page(for: command.helpPage(in: session)))
                    return .success
                }
                let parsed = try command.init(arguments: &arguments, options: options)
                try arguments.finish()
                try parsed.run(in: session)
                return .success
            }
        } catch {
            let report = FailureReport(error, command: commandName)
            if json {
                if let object = report.json { Output(json: true).showJSON(object) }
            } else {
                FileHandle.standardError.write(Data((report.text + "\n").utf8))
            }
            return report.status
        }
    }
}
