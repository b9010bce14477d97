/// The code tokens of a Swift source file: identifiers and punctuation, with comments (line,
/// nested block) and the text of string literals (single-line, multi-line, raw) removed, but the
/// code inside string interpolations kept. Enough of Swift's lexical grammar to tell `Date()` in
/// code from `"Date()"` in a string or after a `"tel://"` on the same line.
struct SwiftCodeScanner {
    /// One token of code and the line it starts on.
    struct Token: Equatable {
        let text: String
        let line: Int
    }

    private let scalars: [Character]
    private var index = 0
    private var line = 1
    private(set) var tokens: [Token] = []

    init(_ source: String) {
        scalars = Array(source)
        scanCode(untilParenthesisCloses: false)
    }

    private var current: Character? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Character? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1 }
        index += 1
    }

    /// Scans code; inside an interpolation, stops at the parenthesis that closes it.
    private mutating func scanCode(untilParenthesisCloses: Bool) {
        var depth = 0
        while let c = current {
            if c == "/" && peek(1) == "/" {
                while let d = current, d != "\n" { advance() }
            } else if c == "/" && peek(1) == "*" {
                skipBlockComment()
            } else if c == "\"" || (c == "#" && rawStringStarts()) {
                scanString()
            } else if c.isLetter || c == "_" || c == "$" {
                let start = index, startLine = line
                while let d = current, d.isLetter || d.isNumber || d == "_" || d == "$" { advance() }
                tokens.append(Token(text: String(scalars[start..<index]), line: startLine))
            } else if c.isWhitespace || c.isNumber {
                advance()
            } else {
                if untilParenthesisCloses {
                    if c == "(" { depth += 1 }
                    if c == ")" {
                        if depth == 0 { advance(); return }
                        depth -= 1
                    }
                }
                tokens.append(Token(text: String(c), line: line))
                advance()
            }
        }
    }

    private func rawStringStarts() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "\""
    }

    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if current == "/" && peek(1) == "*" {
                depth += 1; advance(); advance()
            } else if current == "*" && peek(1) == "/" {
                depth -= 1; advance(); advance()
            } else {
                advance()
            }
        } while depth > 0 && current != nil
    }

    /// Skips a string literal's text; code in `\(…)` (or `\#(…)` in a raw string) is scanned.
    private mutating func scanString() {
        var hashes = 0
        while current == "#" { hashes += 1; advance() }
        let multiline = current == "\"" && peek(1) == "\"" && peek(2) == "\""
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        while let c = current {
            if c == "\\" && escapeHashesFollow(hashes) {
                advance()
                for _ in 0..<hashes { advance() }
                if current == "(" {
                    advance()
                    scanCode(untilParenthesisCloses: true)
                } else if current != nil {
                    advance()
                }
            } else if c == "\"" && closes(quotes: quotes, hashes: hashes) {
                for _ in 0..<(quotes + hashes) { advance() }
                return
            } else if c == "\n" && !multiline {
                return
            } else {
                advance()
            }
        }
    }

    private func escapeHashesFollow(_ hashes: Int) -> Bool {
        (0..<hashes).allSatisfy { peek(1 + $0) == "#" }
    }

    private func closes(quotes: Int, hashes: Int) -> Bool {
        (0..<quotes).allSatisfy { peek($0) == "\"" } && (0..<hashes).allSatisfy { peek(quotes + $0) == "#" }
    }
}

/// Calls by which simulated code would take time, randomness or threads from the host instead
/// of its world (docs/runtime.md, "Tasks simulated code starts"). Tasks it starts (`Task {}`,
/// `Task.detached`) are fine: they run in its world.
enum WorldEscape {
    /// Names that have no use in simulated code at all.
    static let bannedNames: Set<String> = [
        "ContinuousClock", "SuspendingClock", "SystemRandomNumberGenerator", "arc4random",
        "arc4random_uniform", "arc4random_buf", "drand48", "lrand48", "srand48", "DispatchQueue",
        "DispatchTime", "DispatchWallTime", "DispatchSemaphore", "DispatchGroup", "Thread", "usleep",
        "nanosleep", "gettimeofday", "clock_gettime", "CFAbsoluteTimeGetCurrent", "Timer", "RunLoop",
        "ProcessInfo", "pthread_create", "getrandom", "SecRandomCopyBytes",
    ]
    /// The standard library's methods that draw from the system's generator unless given `using:`
    /// (`random()`, `random(in:)`, `randomElement()`, `shuffled()`); a call with other labels is
    /// another API (the platform's seeded `randomElement(of:)`).
    static let seededOnlyWithUsing: Set<String> = ["random", "randomElement", "shuffled", "shuffle"]

    /// Every escape in `source`, as `line: what`.
    static func find(in source: String) -> [String] {
        let tokens = SwiftCodeScanner(source).tokens
        var found: [String] = []
        func text(_ i: Int) -> String? { i < tokens.count ? tokens[i].text : nil }
        for (i, token) in tokens.enumerated() {
            let name = token.text
            let afterDot = i > 0 && tokens[i - 1].text == "."
            if bannedNames.contains(name) {
                found.append("\(token.line): \(name)")
            } else if name == "Task" && !afterDot && text(i + 1) == "." && text(i + 2) == "sleep" {
                // `Task {}` and `Task.detached` become tasks of the world; a sleep takes the host's time.
                found.append("\(token.line): Task.sleep")
            } else if (name == "Date" || name == "UUID") && !afterDot {
                switch (text(i + 1), text(i + 2), text(i + 3)) {
                case ("(", ")", _), (".", "now", _), (".", "init", "("), ("(", "timeIntervalSinceNow", _):
                    found.append("\(token.line): \(name) of the host")
                default: break
                }
            } else if afterDot && seededOnlyWithUsing.contains(name), let labels = argumentLabels(at: i + 1, in: tokens),
                labels.isSubset(of: ["in"])
            {
                found.append("\(token.line): .\(name) without using:")
            } else if (name == "sleep" || name == "time" || name == "random" || name == "rand") && !afterDot
                && text(i + 1) == "(" && (i == 0 || tokens[i - 1].text != "func")
            {
                found.append("\(token.line): \(name)()")
            }
        }
        return found
    }

    /// The argument labels of the call whose `(` is at `open`, at the call's own level; nil when
    /// `open` is not a call (a property such as `world.random`).
    private static func argumentLabels(at open: Int, in tokens: [SwiftCodeScanner.Token]) -> Set<String>? {
        guard open < tokens.count, tokens[open].text == "(" else { return nil }
        var labels: Set<String> = []
        var depth = 0
        for i in open..<tokens.count {
            switch tokens[i].text {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return labels }
            case let word where depth == 1 && i + 1 < tokens.count && tokens[i + 1].text == ":"
                && [",", "("].contains(tokens[i - 1].text):
                labels.insert(word)
            default: break
            }
        }
        return labels
    }
}
