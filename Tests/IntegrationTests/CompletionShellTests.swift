import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

/// `clarityctl completion bash` in a real bash: the script sourced, Tab simulated by calling its
/// function with `COMP_WORDS`, against a running daemon.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "no /bin/bash on this machine"))
struct CompletionShellTests {
    /// What bash's completion offers for `clarityctl WORDS…` (the last word being typed).
    private func complete(_ words: [String], socket: String) throws -> [String] {
        let bash = URL(fileURLWithPath: "/bin/bash")
        let quoted = (["clarityctl"] + words).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            export PATH='\(BuildProducts.directory.path)':"$PATH" CLARITYD_SOCKET='\(socket)'
            source <(clarityctl completion bash)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
            _clarityctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = bash
        process.arguments = ["-c", script]
        process.standardOutput = try FileHandle(forWritingTo: output)
        let child = ChildProcess(process)
        try child.run()
        #expect(child.wait(timeout: 30) == 0)
        return String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndTheDaemonsDevices() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        _ = try daemon.call("device.create", ["device": "lab"])
        #expect(try complete(["sto"], socket: daemon.socketPath) == ["store"])
        #expect(try complete(["store", "g"], socket: daemon.socketPath) == ["get"])
        #expect(try complete(["state", "--device", ""], socket: daemon.socketPath) == ["default", "lab"])
        #expect(try complete(["intent", "selectA"], socket: daemon.socketPath) == ["selectApps"])
    }
}
