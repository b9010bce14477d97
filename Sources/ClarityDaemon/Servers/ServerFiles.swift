import Foundation
import SimulatediOS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of a server's instances' files in its directory (`<state dir>/servers/<server>/`,
/// or the one its registration names; docs/sdk.md, "Your app's own server"), per instance `name`:
///
/// - `<name>.json`: its snapshot, which names the generation `G` of the journal that continues it;
/// - `<name>.<G>.journal`: one ``ServerOperation`` per line; generation 0's starts with the
///   backend's creation, so it rebuilds the backend without any snapshot;
/// - `<name>.<P>.snapshot`: the snapshot before, kept with the journals from `P` on until the
///   next compaction, so that the backend can be rebuilt when `<name>.json` cannot be read.
///
/// Files that cannot be read are moved aside as `<file>.corrupt-<unix time>`, never deleted.
struct ServerFiles {
    let registration: ServerRegistration
    let directory: URL

    /// How logs name the instance `name`: `<prefix> <name>` for a server with a method prefix (`backend default`),
    /// else `<server> instance <name>`.
    func subject(_ name: String) -> String {
        registration.methodPrefix.map { "\($0) \(name)" } ?? "\(registration.name) instance \(name)"
    }

    /// What a file in `backends/` is.
    enum Kind {
        /// `<name>.json`, which holds the generation it belongs to.
        case snapshot
        case previousSnapshot(generation: Int)
        case journal(generation: Int)
    }

    /// A backend's files found in the directory.
    struct Found {
        var hasSnapshot = false
        var previousSnapshots: [Int] = []
        var journals: [Int] = []
    }

    func snapshot(_ name: String) -> String { path("\(name).json") }
    func previousSnapshot(_ name: String, _ generation: Int) -> String { path("\(name).\(generation).snapshot") }
    func journal(_ name: String, _ generation: Int) -> String { path("\(name).\(generation).journal") }

    private func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// Whose file `file` is, and what: nil for files that are not a backend's (moved aside ones
    /// included).
    static func owner(ofFile file: String) -> (name: String, kind: Kind)? {
        if file.hasSuffix(".json") { return (String(file.dropLast(".json".count)), .snapshot) }
        let numbered: [(suffix: String, kind: (Int) -> Kind)] = [
            (".snapshot", Kind.previousSnapshot(generation:)), (".journal", Kind.journal(generation:)),
        ]
        for (suffix, kind) in numbered where file.hasSuffix(suffix) {
            let stem = file.dropLast(suffix.count)
            guard let dot = stem.lastIndex(of: "."), let generation = Self.generation(stem[stem.index(after: dot)...]) else { return nil }
            return (String(stem[..<dot]), kind(generation))
        }
        return nil
    }

    /// A generation as written in a file name: digits without a leading zero (0 itself aside).
    private static func generation(_ digits: Substring) -> Int? {
        guard (1...9).contains(digits.count), digits == "0" || digits.first != "0",
            digits.allSatisfy({ ("0"..."9").contains($0) })
        else { return nil }
        return Int(digits)
    }

    /// The backends with files in the directory, by name.
    func found() -> [String: Found] {
        var byName: [String: Found] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            guard let (name, kind) = Self.owner(ofFile: file) else { continue }
            switch kind {
            case .snapshot: byName[name, default: Found()].hasSnapshot = true
            case .previousSnapshot(let generation): byName[name, default: Found()].previousSnapshots.append(generation)
            case .journal(let generation): byName[name, default: Found()].journals.append(generation)
            }
        }
        return byName
    }

    /// Renames `path` to `<path>.corrupt-<unix time>`; returns the new path.
    @discardableResult
    func moveAside(_ path: String) -> String {
        let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        rename(path, aside)
        return aside
    }

    /// Deletes the previous snapshots and journals of `name` older than generation `oldest`.
    func deleteGenerations(of name: String, before oldest: Int) {
        guard let found = found()[name] else { return }
        let old =
            found.previousSnapshots.filter { $0 < oldest }.map { previousSnapshot(name, $0) }
            + found.journals.filter { $0 < oldest }.map { journal(name, $0) }
        for file in old { unlink(file) }
    }
}
