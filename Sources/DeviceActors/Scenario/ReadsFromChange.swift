import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// A read whose writer changed between the sequential run and a failing one (``ReadsFrom``):
/// `readsFromDiff` in a failure.
public struct ReadsFromChange: Sendable, Encodable, Equatable {
    public let actor: String
    public let key: String
    /// Which of the actor's reads of the key it is (1 for the first).
    public let nth: Int
    /// In the failing run: the read's seq, the writer and its write's seq (nil: the initial
    /// value); nil when only the sequential run made this read.
    public let seq: Int?
    public let writer: String?
    public let writerSeq: Int?
    /// The same in the sequential run; nil when only the failing run made this read.
    public let sequentialSeq: Int?
    public let sequentialWriter: String?
    public let sequentialWriterSeq: Int?
    /// What the read saw in the failing run and in the sequential run, as a story prints values
    /// (nil: the key was absent, or the run made no such read).
    public let value: String?
    public let sequentialValue: String?

    init(read: ReadsFrom.Read, sequential: ReadsFrom.Read?) {
        actor = read.name.actor
        key = read.name.item
        nth = read.name.nth
        seq = read.seq
        writer = Self.name(read.writer)
        writerSeq = read.writerSeq
        sequentialSeq = sequential?.seq
        sequentialWriter = sequential.map { Self.name($0.writer) }
        sequentialWriterSeq = sequential?.writerSeq
        value = read.value.map { ValueText.short($0) }
        sequentialValue = sequential?.value.map { ValueText.short($0) }
    }

    init(missing read: ReadsFrom.Read) {
        actor = read.name.actor
        key = read.name.item
        nth = read.name.nth
        seq = nil
        writer = nil
        writerSeq = nil
        sequentialSeq = read.seq
        sequentialWriter = Self.name(read.writer)
        sequentialWriterSeq = read.writerSeq
        value = nil
        sequentialValue = read.value.map { ValueText.short($0) }
    }

    private static func name(_ write: ReadsFrom.Write) -> String { write == .initial ? "initial" : write.actor }

    /// `wallet.monitor's 2nd read of group.x/spent read seq 44 (wallet.shieldAction) = 4 where the
    /// sequential run read seq 31 (wallet) = 3`.
    public var line: String {
        let read = "\(actor)'s \(Self.ordinal(nth)) read of \(key)"
        func source(_ seq: Int?, _ writer: String?, _ value: String? = nil) -> String {
            let shown = value.map { " = \($0)" } ?? ""
            guard let writer, writer != "initial", let seq else { return "its initial value" + shown }
            return "seq \(seq) (\(writer))" + shown
        }
        guard let seq else {
            return "\(read) (seq \(sequentialSeq ?? 0) in the sequential run, of \(source(sequentialWriterSeq, sequentialWriter))) did not happen"
        }
        guard sequentialWriter != nil else {
            return "\(read) (seq \(seq)) read \(source(writerSeq, writer)); the sequential run made no such read"
        }
        return "\(read) read \(source(writerSeq, writer, value)) where the sequential run read "
            + source(sequentialWriterSeq, sequentialWriter, sequentialValue)
    }

    static func ordinal(_ n: Int) -> String {
        let suffix =
            switch (n % 10, n % 100) {
            case (1, let t) where t != 11: "st"
            case (2, let t) where t != 12: "nd"
            case (3, let t) where t != 13: "rd"
            default: "th"
            }
        return "\(n)\(suffix)"
    }
}
