import Foundation

/// `-o FILE` / `--output FILE`: the file a command writes what it got to, instead of printing it.
struct OutputFile {
    let path: String

    /// Takes `-o` or `--output` from `arguments`; nil when neither was given.
    static func take(from arguments: inout Arguments) throws -> OutputFile? {
        let short = try arguments.value(of: "-o")
        let long = try arguments.value(of: "--output")
        if short != nil, long != nil { throw UsageError("-o and --output cannot be combined") }
        guard let path = short ?? long else { return nil }
        if path.isEmpty { throw UsageError("option -o needs a file name") }
        return OutputFile(path: path)
    }

    /// Takes `option FILE` (`--perfetto FILE`, `--shrunk-scenario FILE`) if given.
    static func take(_ option: String, from arguments: inout Arguments) throws -> OutputFile? {
        guard let path = try arguments.value(of: option) else { return nil }
        guard !path.isEmpty else { throw UsageError("option \(option) needs a file name") }
        return OutputFile(path: path)
    }

    /// A usage error when the file's directory is not there, for a command that must not ask
    /// the daemon for something it cannot keep.
    func checkDirectory() throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("-o \(path): no directory \(directory) to write it in")
        }
    }

    /// Replaces the file with `bytes`.
    func write(_ bytes: [UInt8]) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OutputFileError(path: path, reason: error.localizedDescription)
        }
    }
}

/// A file clarityctl was asked to write could not be written (exit status 1).
struct OutputFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write \(path): \(reason)" }
}
