import Dispatch
import Foundation

/// Runs the built `clarityctl`.
public enum Clarityctl {
    /// Runs `clarityctl arguments…` to completion (see ``BuildProducts/run(_:_:environment:currentDirectory:timeout:)``).
    public static func run(_ arguments: [String], environment: [String: String]? = nil, timeout: Double = 60)
        -> (status: Int32, stdout: String, stderr: String)
    {
        BuildProducts.run("clarityctl", arguments, environment: environment, timeout: timeout)
    }
}

extension BuildProducts {
    /// Runs the built executable `name` with `arguments` to completion and returns its exit status
    /// and output. A binary that cannot be started gives status 127 and the reason on `stderr`, as
    /// a shell would; one still running after `timeout` seconds is terminated (SIGTERM, status 143).
    ///
    /// Waits with `terminationHandler`, not `waitUntilExit()`, which can hang on Linux when called
    /// from a Swift concurrency thread.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil,
        timeout: Double = 60
    ) -> (status: Int32, stdout: String, stderr: String) {
        let scratch = URL(fileURLWithPath: "/tmp").appendingPathComponent("\(name)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let stdoutURL = scratch.appendingPathComponent("stdout")
            let stderrURL = scratch.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            let process = Process()
            process.executableURL = executable(name)
            process.arguments = arguments
            if let environment { process.environment = environment }
            if let currentDirectory { process.currentDirectoryURL = currentDirectory }
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            let child = ChildProcess(process)
            try child.run()
            var status = child.wait(timeout: timeout)
            if status == nil {
                process.terminate()
                status = child.wait(timeout: 10) ?? 137
            }
            return (
                status ?? 137,
                (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            )
        } catch {
            return (127, "", "cannot run \(name): \(error)")
        }
    }
}
