import ControlProtocol
import Foundation

/// The program: parses the command line, runs the command and turns every failure into its
/// message on stderr and its ``ExitStatus``. Without a command it prints the usage overview.
enum ClarityCtl {
    static func main(_ commandLine: [String], environment: [String: String]) -> ExitStatus {
        var commandName: String?
        do {
            var arguments = Arguments(commandLine)
            let options = try GlobalOptions.extract(from: &arguments, environment: environment)
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
        } catch var error as UsageError {
            if error.page == nil, let commandName { error.page = .command(commandName) }
            printError("clarityctl: \(error.message)\n\(error.hint)")
            return .usage
        } catch let error as RPCError {
            printError(describe(error))
            return .daemonError
        } catch let error as ClientError {
            printError("clarityctl: \(error.description)")
            return .unreachable
        } catch let failure as BenchFailure {
            printError("clarityctl: \(failure.message)")
            return .daemonError
        } catch {
            printError("clarityctl: \(error)")
            return .daemonError
        }
    }

    /// `error <code>: <message>`, then the error's `data`: `field` and `reason` on their own
    /// lines, anything else as compact JSON.
    static func describe(_ error: RPCError) -> String {
        var lines = ["error \(error.code): \(error.message)"]
        switch error.data {
        case nil, .null?:
            break
        case .object(let members)? where members.keys.allSatisfy({ ["field", "reason"].contains($0) }):
            if let field = members["field"] { lines.append("  field: \(PlainText.scalar(field))") }
            if let reason = members["reason"] { lines.append("  reason: \(PlainText.scalar(reason))") }
        case let data?:
            lines.append("  data: \(PlainText.compact(data))")
        }
        return lines.joined(separator: "\n")
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
