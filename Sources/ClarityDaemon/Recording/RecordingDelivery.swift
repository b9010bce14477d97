import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `record.stop` hands a recorded scenario over (docs/protocol.md, recording): in its
/// answer, or written to a file (`path`). Either way it is written from the steps as they are
/// held, encoded once (``RecordedStep``), never as a tree of values, and the recording ends only
/// once it is handed over: an answer too large to go out, or a file that cannot be written,
/// refuses the stop and the recording goes on.
enum RecordingDelivery {
    /// The answer `{"counts","device","scenario","started","stopped"}`, as ``JSONWire`` writes
    /// it, to the request `id`; refused (-32009 `tooLarge`) when the dispatcher would withhold it
    /// (``RequestDispatcher``): over ``RequestDispatcher/maxAnswerBytes``, or over
    /// ``RequestDispatcher/budgetedAnswerBytes`` while the answers clients have not read
    /// (`answers`) would take it past their cap.
    static func answer(
        _ scenario: RecordedScenario, _ summary: RecordingStopped, id: RPCID?, answers: ByteBudget
    ) throws(RPCError) -> JSONText {
        let bytes: Int
        do {
            // The summary's members and `,"scenario":…`, in `{"id":…,"jsonrpc":"2.0","result":…}`.
            bytes = try JSONWire.bytes(summary).count + 12 + scenario.byteCount() + JSONWire.bytes(id ?? .null).count + 33
        } catch {
            throw RPCError.internalError("the recorded scenario could not be encoded: \(error)")
        }
        let unread = answers.total
        if bytes > RequestDispatcher.maxAnswerBytes {
            throw RecordingRefusal.answerTooLarge(bytes: bytes, limit: RequestDispatcher.maxAnswerBytes, unread: nil)
                .error(device: summary.device)
        }
        if bytes > RequestDispatcher.budgetedAnswerBytes, unread + bytes > answers.limit {
            throw RecordingRefusal.answerTooLarge(bytes: bytes, limit: answers.limit, unread: unread).error(device: summary.device)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes)
        do {
            try RecordedScenario.appendObject(
                [
                    "counts": { try JSONWire.append(summary.counts, to: &$0) },
                    "device": { try JSONWire.append(summary.device, to: &$0) },
                    "scenario": { try scenario.write(to: &$0) },
                    "started": { try JSONWire.append(summary.started, to: &$0) },
                    "stopped": { try JSONWire.append(summary.stopped, to: &$0) },
                ], to: &result)
        } catch {
            throw RPCError.internalError("the recorded scenario could not be encoded: \(error)")
        }
        return JSONText(encoded: result)
    }

    /// Writes the scenario laid out as a file (``ScenarioText``) to `path`, replacing it: to a
    /// new file beside it, synced, then renamed over it, so that `path` holds the old file or the
    /// whole scenario, never part of it. Returns the bytes written; a file that cannot be written
    /// is -32602 `path`, naming why, and so is one inside `stateDirectory`, whose journals and
    /// snapshots a scenario must never replace.
    static func write(_ scenario: RecordedScenario, to path: String, outside stateDirectory: URL) throws(RPCError) -> Int {
        let directory = (path as NSString).deletingLastPathComponent
        if let resolved = realpath(directory.isEmpty ? "/" : directory, nil), let state = realpath(stateDirectory.path, nil) {
            defer { free(resolved); free(state) }
            let (inside, root) = (String(cString: resolved), String(cString: state))
            if inside == root || inside.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                throw RPCError.invalidParams(
                    field: "path", reason: "\(path) is inside clarityd's state directory \(root), which holds its devices' files; the recording goes on")
            }
        }
        let temporary = "\(path).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard fd >= 0 else { throw unwritable(path, errno) }
        var written = 0
        do {
            defer { close(fd) }
            var pending: [UInt8] = []
            try scenario.layOut { line in
                pending += line
                if pending.count >= 1 << 20 {
                    try AtomicFile.writeAll(pending, to: fd, naming: temporary)
                    written += pending.count
                    pending.removeAll(keepingCapacity: true)
                }
            }
            try AtomicFile.writeAll(pending, to: fd, naming: temporary)
            written += pending.count
            guard fsync(fd) == 0 else { throw DeviceStateStore.StoreError.io("fsync \(temporary)", errno) }
            guard rename(temporary, path) == 0 else { throw DeviceStateStore.StoreError.io("rename to \(path)", errno) }
        } catch {
            unlink(temporary)
            throw RPCError.invalidParams(field: "path", reason: "cannot write \(path): \(error); the recording goes on")
        }
        AtomicFile.syncDirectory(directory.isEmpty ? "/" : directory)
        return written
    }

    private static func unwritable(_ path: String, _ code: Int32) -> RPCError {
        .invalidParams(field: "path", reason: "cannot write \(path): \(String(cString: strerror(code))); the recording goes on")
    }
}
