/// A scenario as a file people read and edit, laid out as config/scenarios' files are: its
/// members one a line in the order docs/scenarios.md lists them (others after them, by name),
/// `steps` last, one step a line. clarityctl lays out a recording it was answered so
/// (`record stop -o FILE`), and clarityd one it writes itself (`record.stop`'s `path`): the
/// same bytes either way.
public enum ScenarioText {
    private static let leadingMembers = [
        "name", "device", "app", "start", "timezone", "seed", "config", "failOnRace", "builtInInvariants", "expectFailure",
        "invariants",
    ]

    /// The file of `scenario`, a scenario as JSON.
    public static func text(of scenario: JSONValue) -> String {
        let members = scenario.objectValue ?? [:]
        let steps = members["steps"]?.arrayValue
        var text: [UInt8] = []
        write(
            members: members.filter { $0.key != "steps" }.mapValues { (try? JSONWire.bytes($0)) ?? Array("?".utf8) },
            steps: steps?.count, step: { index, bytes in bytes += (try? JSONWire.bytes(steps?[index] ?? .null)) ?? [] },
            to: { text += $0 })
        return String(decoding: text, as: UTF8.self)
    }

    /// Lays out a scenario whose members but `steps` are `members` (each value as ``JSONWire``
    /// encodes it) and whose `steps` are `steps` many (none: no `steps` member), `step` appending
    /// the encoding of each in turn; hands the file to `emit` a line at a time, so that a large
    /// scenario is never whole in memory twice.
    public static func write<Failure: Error>(
        members: [String: [UInt8]], steps: Int?, step: (_ index: Int, _ bytes: inout [UInt8]) -> Void,
        to emit: (_ bytes: [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let others = members.keys.filter { !leadingMembers.contains($0) }.sorted()
        let lines = (leadingMembers + others).compactMap { key in
            members[key].map { Array("  ".utf8) + ((try? JSONWire.bytes(key)) ?? []) + Array(": ".utf8) + $0 }
        }
        var line = Array("{\n".utf8)
        for (index, member) in lines.enumerated() {
            line += member
            if index < lines.count - 1 || steps != nil { line += Array(",\n".utf8) }
            try emit(line)
            line = []
        }
        if let steps {
            line += Array(steps == 0 ? "  \"steps\": []".utf8 : "  \"steps\": [\n".utf8)
            for index in 0..<steps {
                line += Array("    ".utf8)
                step(index, &line)
                if index < steps - 1 { line += Array(",".utf8) }
                line += Array("\n".utf8)
                try emit(line)
                line = []
            }
            if steps > 0 { line += Array("  ]".utf8) }
        }
        try emit(line + Array("\n}\n".utf8))
    }
}
