import DaemonTestSupport
import Foundation

/// The machine's own tools that ServiceManagerTests runs (systemd's), and the probes that tell
/// whether a test needing one can run here. A test that cannot is reported skipped, with why
/// (Swift Testing's `.enabled(if:)`), not passed: each probe does what the test will need, on
/// this machine, when the test is about to run.
enum HostTools {
    /// The repository's root (scripts/ and config/ are in it).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `systemctl`, where installed.
    static let systemctl = installed(["/usr/bin/systemctl", "/bin/systemctl"])

    /// `systemd-analyze`, where installed.
    static let systemdAnalyze = installed(["/usr/bin/systemd-analyze", "/bin/systemd-analyze"])

    /// Whether a systemd user manager runs for this user: `systemctl --user is-system-running`
    /// answers `running` or `degraded` (most containers answer `offline`, or have no bus).
    static var userManagerRuns: Bool {
        guard let systemctl, let state = try? run(systemctl, ["--user", "is-system-running"]) else { return false }
        return ["running", "degraded"].contains(state.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether scripts/systemd-namespace.sh can boot a systemd here: `--check` tries what it
    /// needs (root, a systemd binary, `unshare` making a PID and mount namespace, a cgroup of its
    /// own); run it to see why not.
    static var namespaceBoots: Bool {
        (try? run(namespaceScript.path, ["--check"]).status) == 0
    }

    static let namespaceScript = repository.appendingPathComponent("scripts/systemd-namespace.sh")

    /// Runs `tool` with `arguments` to completion: its exit status (nil after 60 s) and what it
    /// printed, standard output and error together.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        let output = URL(fileURLWithPath: "/tmp/tool-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        // Closed here: `Process` keeps the handles it was given, and the watchdog's wait runs this
        // hundreds of times (it once held 1 470 descriptors of deleted files open, enough to crash
        // Foundation's `Process.run()`: docs/reliability.md, "Known").
        let printed = try FileHandle(forWritingTo: output)
        defer { try? printed.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = printed
        process.standardError = printed
        let child = ChildProcess(process)
        try child.run()
        let status = child.wait(timeout: 60)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    private static func installed(_ candidates: [String]) -> String? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
