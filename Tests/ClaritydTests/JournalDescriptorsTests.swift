import Foundation
import Testing

@testable import ClarityDaemon

/// Journals borrow their descriptors: many devices write under a small budget, each line lands
/// in its own file, and a finished journal gives its descriptor back.
@Suite struct JournalDescriptorsTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jd-\(UUID().uuidString)")
    private let log = Logger(level: .error)

    @Test func manyJournalsWriteThroughAFewDescriptors() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let descriptors = JournalDescriptors(limit: 2)
        let syncThreads = WorkerThreads(name: "test.sync", count: 1)
        let journals = try (0..<5).map { index in
            let path = directory.appendingPathComponent("d\(index).journal").path
            _ = FileManager.default.createFile(atPath: path, contents: Data("header\n".utf8))
            return try DeviceJournal(path: path, syncs: true, syncThreads: syncThreads, descriptors: descriptors, log: log)
        }
        #expect(descriptors.openCount == 0, "a journal opens its file only to write or sync it")
        for round in 0..<3 {
            for (index, journal) in journals.enumerated() {
                _ = try journal.append(Array("line \(round) of \(index)".utf8))
                #expect(descriptors.openCount <= 2)
            }
        }
        for (index, journal) in journals.enumerated() {
            #expect(journal.finish())
            let text = try String(contentsOfFile: journal.path, encoding: .utf8)
            #expect(text == "header\n" + (0..<3).map { "line \($0) of \(index)\n" }.joined())
        }
        #expect(descriptors.openCount == 0)
    }

    @Test func aJournalReplacedAtItsPathKeepsWritingTheFileItOpened() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let descriptors = JournalDescriptors(limit: 4)
        let syncThreads = WorkerThreads(name: "test.sync", count: 1)
        let path = directory.appendingPathComponent("d.journal").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let old = try DeviceJournal(path: path, syncs: false, syncThreads: syncThreads, descriptors: descriptors, log: log)
        _ = try old.append(Array("old 1".utf8))
        let kept = path + ".kept"
        try FileManager.default.linkItem(atPath: path, toPath: kept)
        let replacement = path + ".tmp"
        _ = FileManager.default.createFile(atPath: replacement, contents: Data("new header\n".utf8))
        #expect(rename(replacement, path) == 0)
        let new = try DeviceJournal(path: path, syncs: false, syncThreads: syncThreads, descriptors: descriptors, log: log)
        _ = try old.append(Array("old 2".utf8))
        _ = try new.append(Array("new 1".utf8))
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "old 1\nold 2\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new header\nnew 1\n")
    }
}
