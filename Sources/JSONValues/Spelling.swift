/// Did-you-mean suggestions for names a user typed: fields, commands, intents, event types.
public enum Spelling {
    /// The candidate closest to `name`: equal but for case, or at most two edits away (one for
    /// names of up to five letters); nil when none is that close.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == name.lowercased() && $0 != name }) {
            return sameLetters
        }
        let scored = candidates.filter { $0 != name }.map { ($0, editDistance(name, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= min(2, max(1, name.count / 3)) else { return nil }
        return best.0
    }

    /// Edit distance between two names, a swap of neighbours counting as one edit (optimal
    /// string alignment), ignoring case.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
