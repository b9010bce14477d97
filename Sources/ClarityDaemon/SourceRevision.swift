import Foundation

/// The source revision this clarityd was built from, for failure reports and journal headers
/// (docs/scenarios.md, "Schedules, strategies and replay"): `CLARITYD_SOURCE_REVISION` when set at start (a packager's
/// stamp), else the commit checked out in the git work tree the binary's sources live in (found
/// from this file's path, read at start, worktrees and packed refs included), else nil — an
/// installed binary whose sources are gone. Uncommitted changes are not seen: the revision names
/// the commit the work tree was at, not every byte built.
enum SourceRevision {
    static let current: String? = {
        if let stamped = ProcessInfo.processInfo.environment["CLARITYD_SOURCE_REVISION"], !stamped.isEmpty {
            return stamped
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if let revision = revision(ofWorkTree: directory) { return revision }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// The commit `HEAD` names in the work tree at `directory`, if it is one.
    private static func revision(ofWorkTree directory: URL) -> String? {
        let dotGit = directory.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
        var gitDirectory = dotGit
        if !isDirectory.boolValue {
            // A linked worktree: `.git` is a file `gitdir: PATH`.
            guard let pointer = read(dotGit), pointer.hasPrefix("gitdir: ") else { return nil }
            let path = String(pointer.dropFirst("gitdir: ".count))
            gitDirectory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        }
        guard let head = read(gitDirectory.appendingPathComponent("HEAD")) else { return nil }
        guard head.hasPrefix("ref: ") else { return isCommit(head) ? head : nil }
        let ref = String(head.dropFirst("ref: ".count))
        var common = gitDirectory
        if let relative = read(gitDirectory.appendingPathComponent("commondir")) {
            common = relative.hasPrefix("/") ? URL(fileURLWithPath: relative) : gitDirectory.appendingPathComponent(relative)
        }
        for base in [gitDirectory, common] {
            if let commit = read(base.appendingPathComponent(ref)), isCommit(commit) { return commit }
        }
        let packed = read(common.appendingPathComponent("packed-refs")) ?? ""
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + ref) {
            let commit = String(line.prefix(while: { $0 != " " }))
            if isCommit(commit) { return commit }
        }
        return nil
    }

    private static func read(_ file: URL) -> String? {
        (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isCommit(_ text: String) -> Bool {
        text.count == 40 && text.allSatisfy(\.isHexDigit)
    }
}
