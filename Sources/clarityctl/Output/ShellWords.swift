/// Command lines printed for pasting into a POSIX shell (`explore`'s replay commands).
enum ShellWords {
    /// Characters a word may hold and still be typed as it is.
    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=@%+")

    /// `words` joined by spaces, each quoted when the shell would otherwise split or expand it:
    /// `'my scenario.json'`, `''`, `'it'\''s'`.
    static func line(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy(plain.contains) { return word }
        return "'" + word.map { $0 == "'" ? #"'\''"# : String($0) }.joined() + "'"
    }
}
