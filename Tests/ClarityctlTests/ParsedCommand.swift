@testable import clarityctl

/// `words` read as `type`'s command line is: the global options taken out, the command's own
/// parsed, nothing left over.
func parsedCommand<Command: ClarityCommand>(_ type: Command.Type, _ words: [String]) throws -> Command {
    var arguments = Arguments(words)
    let options = try GlobalOptions.extract(from: &arguments, environment: [:])
    let command = try Command(arguments: &arguments, options: options)
    try arguments.finish()
    return command
}
