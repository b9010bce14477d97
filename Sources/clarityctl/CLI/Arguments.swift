/// The words of a command line, consumed by name (options) and in order (positionals).
///
/// A word starting with `-` is an option, unless it is a number (`-3`) or follows `--`; an
/// option's value is the next word (`--app com.x`) or follows `=` (`--app=com.x`). A repeated
/// option keeps its last value, unless the command takes every value (``values(of:)``).
/// Commands take their options first, then their positionals, then call ``finish()`` so that
/// anything left over is reported.
struct Arguments {
    private enum Word {
        case option(String)
        case positional(String)

        var text: String {
            switch self {
            case .option(let text), .positional(let text): text
            }
        }
    }

    private var words: [Word]

    init(_ commandLine: [String]) {
        var words: [Word] = []
        var onlyPositionals = false
        for text in commandLine {
            if onlyPositionals {
                words.append(.positional(text))
            } else if text == "--" {
                onlyPositionals = true
            } else if text.count > 1, text.hasPrefix("-"), Double(text) == nil {
                words.append(.option(text))
            } else {
                words.append(.positional(text))
            }
        }
        self.words = words
    }

    /// Removes every `name` flag; true when there was one.
    mutating func flag(_ names: String...) -> Bool {
        let before = words.count
        words.removeAll { word in
            if case .option(let text) = word { return names.contains(text) }
            return false
        }
        return words.count != before
    }

    /// Removes every `name VALUE` / `name=VALUE` and returns the last value, or nil when absent.
    mutating func value(of name: String) throws -> String? {
        try values(of: name).last
    }

    /// Removes every `name VALUE` / `name=VALUE` and returns the values in order: an option that
    /// may be repeated. The value after a space must not be an option itself (`--kind --last`).
    mutating func values(of name: String) throws -> [String] {
        var found: [String] = []
        var index = 0
        while index < words.count {
            guard case .option(let text) = words[index] else {
                index += 1
                continue
            }
            if text == name {
                guard index + 1 < words.count, case .positional(let value) = words[index + 1] else {
                    throw UsageError("option \(name) needs a value")
                }
                found.append(value)
                words.removeSubrange(index...(index + 1))
            } else if text.hasPrefix(name + "=") {
                found.append(String(text.dropFirst(name.count + 1)))
                words.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes and returns the first word when it is a positional: the command's name.
    mutating func commandWord() -> String? {
        guard case .positional(let text)? = words.first else { return nil }
        words.removeFirst()
        return text
    }

    /// The first word when it is a positional, left in place: the verb after a command word that
    /// is also a group (`trace` and `trace export`).
    var nextCommandWord: String? {
        guard case .positional(let text)? = words.first else { return nil }
        return text
    }

    /// Removes and returns the first positional, or nil when there is none.
    mutating func optionalPositional() -> String? {
        guard let index = words.firstIndex(where: { if case .positional = $0 { true } else { false } }) else {
            return nil
        }
        return words.remove(at: index).text
    }

    /// Removes and returns the first positional; `name` (e.g. `KEY`) is what a missing one is called.
    mutating func positional(_ name: String) throws -> String {
        guard let text = optionalPositional() else { throw UsageError("missing \(name)") }
        return text
    }

    /// Removes and returns every remaining positional.
    mutating func remainingPositionals() -> [String] {
        var texts: [String] = []
        while let text = optionalPositional() { texts.append(text) }
        return texts
    }

    /// The first option left, if any: a global option parser uses it to reject unknown ones early.
    var firstOption: String? {
        for case .option(let text) in words { return text }
        return nil
    }

    /// Fails on whatever no one consumed: an unknown option, or an extra argument.
    func finish() throws {
        if let option = firstOption {
            throw UsageError("unknown option '\(option.split(separator: "=", maxSplits: 1)[0])'")
        }
        if let extra = words.first {
            throw UsageError("unexpected argument '\(extra.text)'")
        }
    }
}
