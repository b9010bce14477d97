import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// Why a schedule failed, as the operations that led to the broken condition — what a story
/// shows after its switches, so nobody needs `--trace` to see it
/// (docs/scenarios.md, "What the story says about the failure").
///
/// - A lost update (a `race` effect, the one the failure names when it names one; else one found
///   in the trace on the key the failure checked): the losing process's read and the value it
///   saw, the other process's write that landed after it, and the write that overwrote that one
///   unseen.
/// - Any other failure: the last writes (App Group keys, shields) to what it checked — the key
///   an `expect` on the store names, the shields for a shield condition, else every key and
///   shield — with the reads their process made in the same callback or intent before each,
///   then the faults injected after them.
public struct CausalChain: Sendable {
    public let links: [CausalLink]
    /// One line: `lost update: A read k = 3 (seq 40); B wrote 4 (seq 44); A wrote 5 over it (seq 47)`.
    public let summary: String?

    /// Writes shown for a failure that is not a lost update, and reads shown before each.
    static let lastWrites = 2
    static let readsPerWrite = 3

    public init(entries: [TraceEntry<Effect>], failure: ScenarioFailureReason, readsFrom: ReadsFrom) {
        let target = Target(failure.message)
        if let lost = Self.lostUpdate(in: entries, failure: failure, target: target, readsFrom: readsFrom) {
            self.init(lostUpdate: lost, readsFrom: readsFrom)
        } else {
            // An invariant that names the trace entry it judged (`trace seq 84`) saw nothing after it.
            let judged = Self.judgedSequence(failure.message).map { seq in entries.filter { $0.sequence <= seq } }
            let judgedEntry = judged?.last.flatMap { $0.sequence == Self.judgedSequence(failure.message) ? $0 : nil }
            self.init(lastWritesTo: target, entries: judged ?? entries, readsFrom: readsFrom, judged: judgedEntry)
        }
    }

    /// The trace entry a failure's message names (`… (trace seq 84)`), if it names one.
    static func judgedSequence(_ message: String) -> Int? {
        guard let range = message.range(of: "trace seq ", options: .backwards) else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// What a failure checked, from its message (``ScenarioCondition`` words it).
    enum Target {
        case storeKey(String)
        case shields
        case anything

        init(_ message: String) {
            if let range = message.range(of: "store ") {
                let key = message[range.upperBound...].prefix { $0 != " " && $0 != ":" }
                self = key.isEmpty ? .anything : .storeKey(String(key))
            } else if message.contains("shield") {
                self = .shields
            } else {
                self = .anything
            }
        }

        func covers(item: String) -> Bool {
            switch self {
            case .storeKey(let key): item == key || item.hasSuffix("/" + key)
            case .shields: false
            case .anything: true
            }
        }

        var coversShields: Bool {
            switch self {
            case .shields, .anything: true
            case .storeKey: false
            }
        }
    }

    /// The race effect the failure names, else the last one on what it checked, else a lost
    /// update read off the relation: a process's write of a key after its own read of it, with
    /// another process's write between.
    private static func lostUpdate(
        in entries: [TraceEntry<Effect>], failure: ScenarioFailureReason, target: Target, readsFrom: ReadsFrom
    ) -> LostUpdate? {
        let races = entries.compactMap { entry -> (actor: String, lost: LostUpdate)? in
            guard case .race(let lost) = entry.payload else { return nil }
            return (entry.actor, lost)
        }
        if let kind = failure.kind,
            let named = races.first(where: { "\($0.lost.key): \($0.actor) over \($0.lost.otherActor)" == kind })
        {
            return named.lost
        }
        if failure.invariant == "race", let first = races.first { return first.lost }
        if case .storeKey = target {
            if let last = races.last(where: { target.covers(item: $0.lost.suite + "/" + $0.lost.key) }) { return last.lost }
            return foundLostUpdate(readsFrom, target: target)
        }
        return nil
    }

    /// The last write of a key the target covers that overwrote, unseen, another process's
    /// write that landed after the writer's last read of the key.
    private static func foundLostUpdate(_ readsFrom: ReadsFrom, target: Target) -> LostUpdate? {
        for write in readsFrom.writes.reversed() where target.covers(item: write.item) {
            guard
                let read = readsFrom.reads.last(where: {
                    $0.name.actor == write.name.actor && $0.name.item == write.item && $0.seq < write.seq
                }),
                let other = readsFrom.writes.last(where: {
                    $0.item == write.item && $0.name.actor != write.name.actor && $0.seq > read.seq && $0.seq < write.seq
                })
            else { continue }
            let (suite, key) = split(write.item)
            return LostUpdate(
                suite: suite, key: key, readSeq: read.seq, otherActor: other.name.actor, otherWriteSeq: other.seq,
                writeSeq: write.seq)
        }
        return nil
    }

    private static func split(_ item: String) -> (suite: String, key: String) {
        guard let slash = item.firstIndex(of: "/") else { return ("", item) }
        return (String(item[..<slash]), String(item[item.index(after: slash)...]))
    }

    private init(lostUpdate lost: LostUpdate, readsFrom: ReadsFrom) {
        let item = lost.suite + "/" + lost.key
        let read = readsFrom.reads.first { $0.seq == lost.readSeq }
        let other = readsFrom.writes.first { $0.seq == lost.otherWriteSeq }
        let losing = readsFrom.writes.first { $0.seq == lost.writeSeq }
        let readLink = CausalLink(
            seq: lost.readSeq, actor: read?.name.actor ?? losing?.name.actor ?? "?", op: "read", key: item,
            value: read?.value.map { ValueText.short($0) }, role: .read)
        let otherLink = CausalLink(
            seq: lost.otherWriteSeq, actor: lost.otherActor, op: other?.value == nil ? "remove" : "write", key: item,
            value: other?.value.map { ValueText.short($0) }, role: .interleavedWrite)
        let losingLink = CausalLink(
            seq: lost.writeSeq, actor: losing?.name.actor ?? readLink.actor, op: losing?.value == nil ? "remove" : "write",
            key: item, value: losing?.value.map { ValueText.short($0) }, role: .losingWrite)
        links = [readLink, otherLink, losingLink]
        func wrote(_ link: CausalLink) -> String { link.value.map { "wrote \($0)" } ?? "removed it" }
        summary =
            "lost update: \(readLink.actor) read \(item) = \(readLink.value ?? "nothing") (seq \(readLink.seq)); "
            + "\(otherLink.actor) \(wrote(otherLink)) (seq \(otherLink.seq)); "
            + "\(losingLink.actor) \(wrote(losingLink)) over it (seq \(losingLink.seq))"
    }

    private init(lastWritesTo target: Target, entries: [TraceEntry<Effect>], readsFrom: ReadsFrom, judged: TraceEntry<Effect>?) {
        var writes: [(index: Int, link: CausalLink)] = []
        for (index, entry) in entries.enumerated().reversed() where writes.count < Self.lastWrites {
            if let link = Self.write(entry, target: target) { writes.insert((index, link), at: 0) }
        }
        var links: [CausalLink] = []
        for (index, write) in writes {
            // The writer's reads in the same callback or intent, before the write.
            let start =
                entries[..<index].lastIndex {
                    $0.actor == write.actor && ["extension.callback", "intent"].contains($0.payload.kind)
                } ?? 0
            let seqs = entries[start..<index].filter { $0.actor == write.actor && $0.payload.kind == "store.read" }
                .map(\.sequence).suffix(Self.readsPerWrite)
            for read in readsFrom.reads where seqs.contains(read.seq) && !links.contains(where: { $0.seq == read.seq }) {
                links.append(Self.link(read))
            }
            links.append(write)
        }
        // A fault after the last of them: what cut the write that would have come.
        let faults = entries.filter { $0.sequence > (writes.last?.link.seq ?? 0) }.compactMap { entry -> CausalLink? in
            guard case .fault(let fault, let at) = entry.payload else { return nil }
            return CausalLink(seq: entry.sequence, actor: entry.actor, op: "fault", key: at, value: fault, role: .fault)
        }
        links += faults
        let led = judged.map { Self.readsLeading(to: $0, entries: entries, readsFrom: readsFrom) } ?? []
        self.links = (links + led.map(Self.link).filter { read in !links.contains { $0.seq == read.seq } })
            .sorted { $0.seq < $1.seq }
        let from = links.isEmpty ? nil : "from: " + links.map { $0.role == .read ? $0.text : "→ " + $0.text }.joined(separator: "; ")
        guard let judged, !led.isEmpty else {
            summary = from
            return
        }
        summary =
            led.map(Self.readText).joined(separator: ", ") + " just before what failed (seq \(judged.sequence))"
            + (from.map { "; " + $0 } ?? "")
    }

    /// The reads the process that did what an invariant judged made just before it (since its
    /// previous other operation, at most ``readsPerWrite``): what it decided on, a stale value
    /// another process wrote among them.
    private static func readsLeading(
        to judged: TraceEntry<Effect>, entries: [TraceEntry<Effect>], readsFrom: ReadsFrom
    ) -> [ReadsFrom.Read] {
        var seqs: [Int] = []
        for entry in entries.reversed() where entry.sequence < judged.sequence && entry.actor == judged.actor {
            guard entry.payload.kind == "store.read", seqs.count < readsPerWrite else { break }
            seqs.insert(entry.sequence, at: 0)
        }
        return readsFrom.reads.filter { seqs.contains($0.seq) }
    }

    private static func link(_ read: ReadsFrom.Read) -> CausalLink {
        CausalLink(
            seq: read.seq, actor: read.name.actor, op: "read", key: read.name.item,
            value: read.value.map { ValueText.short($0) }, role: .read)
    }

    /// `wallet read group.x/verified = true (seq 115), which wallet.monitor wrote (seq 103)`:
    /// who wrote what the read saw, when another process did.
    private static func readText(_ read: ReadsFrom.Read) -> String {
        let text = link(read).text
        guard let writerSeq = read.writerSeq, read.writer.actor != read.name.actor else { return text }
        return text + ", which \(read.writer.actor) wrote (seq \(writerSeq))"
    }

    /// The write or shield change `entry` is, when the target covers it.
    private static func write(_ entry: TraceEntry<Effect>, target: Target) -> CausalLink? {
        switch entry.payload {
        case .storeWrite(let suite, let key, let value) where target.covers(item: suite + "/" + key):
            CausalLink(
                seq: entry.sequence, actor: entry.actor, op: "write", key: suite + "/" + key, value: ValueText.short(value),
                role: .lastWrite)
        case .storeRemove(let suite, let key) where target.covers(item: suite + "/" + key):
            CausalLink(seq: entry.sequence, actor: entry.actor, op: "remove", key: suite + "/" + key, value: nil, role: .lastWrite)
        case .shieldApply(let store, let applications, _, let webDomains) where target.coversShields:
            CausalLink(
                seq: entry.sequence, actor: entry.actor, op: "shield", key: store,
                value: ValueText.short(applications + webDomains.map(WebDomain.foregroundName)), role: .lastWrite)
        case .shieldClear(let store) where target.coversShields:
            CausalLink(seq: entry.sequence, actor: entry.actor, op: "clear shield", key: store, value: nil, role: .lastWrite)
        default: nil
        }
    }
}
