import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A journal file's bytes read line by line, in order, up to the first line that does not read:
/// a device's journal (``DeviceStateStore``) and a backend's (``ServerStore``) are read, and
/// repaired, the same way.
struct JournalScan {
    /// The first line that did not read: its number from 1, and whether it ended with a newline.
    /// A line without one was torn by a crash mid-write (no answer waited for it); a whole line
    /// that does not read is damage.
    struct Stop {
        let line: Int
        let complete: Bool
    }

    /// The byte ranges in the data of the lines that read, without their newlines.
    private(set) var ranges: [Range<Data.Index>] = []
    private(set) var stop: Stop?
    /// The bytes of the lines that read, newlines included: where the file is cut back to.
    private(set) var goodLength = 0
    /// The lines in the file, a last one without a newline included.
    let lineCount: Int

    /// Reads `data` line by line while `reads` accepts them; it is given each whole line's number
    /// (from 1) and bytes, in order, and is not called again once it refused one.
    init(_ data: Data, reads: (_ number: Int, _ line: Data) -> Bool) {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        lineCount = lines.count
        for (index, line) in lines.enumerated() {
            let complete = line.endIndex < data.endIndex
            guard complete, reads(index + 1, line) else {
                stop = Stop(line: index + 1, complete: complete)
                return
            }
            ranges.append(line.startIndex..<line.endIndex)
            goodLength += line.count + 1
        }
    }

    /// Reports where reading stopped and cuts the file at `path` back to the lines that read,
    /// so that nothing is ever appended after a line a replay could not read: a torn last line
    /// is a warning; a whole line that does not read is an error, the whole file first copied
    /// aside (`<path>.corrupt-<unix time>`). `subject` is whose journal it is (`device x`), and
    /// `restored` what is restored up to the line (`the device`). Returns false when the file
    /// could not be cut (it still holds the line).
    @discardableResult
    func repair(_ path: String, subject: String, restored: String, log: Logger) -> Bool {
        guard let stop else { return true }
        if stop.complete {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.copyItem(atPath: path, toPath: aside)
            log.error(
                "\(subject): journal line \(stop.line) of \(lineCount) is unreadable; \(restored) is restored up to it (the whole file is kept as \(aside))"
            )
        } else {
            log.warning("\(subject): the journal's last line was cut short (a crash mid-write); dropped")
        }
        guard truncate(path, off_t(goodLength)) == 0 else {
            log.error("\(subject): \(SystemCallError("truncate", path)); nothing more is written to it")
            return false
        }
        return true
    }
}
