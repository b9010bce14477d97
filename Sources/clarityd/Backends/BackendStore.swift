import ControlProtocol
import DeviceActors
import Foundation

/// The Phone's backends on disk, `<stateDir>/backends/<name>.json`, one file each, replaced whole
/// (``AtomicFile``) whenever a request changed the backend: saved before the request's journal
/// line, so that whatever a device was told the backend stored is on disk first
/// (docs/apps/thephone.md, "The backend in the daemon").
final class BackendStore: Sendable {
    let directory: URL
    let servers: Servers
    private let log: Logger
    /// The revision of each backend as last saved.
    private let saved = Protected<[String: Int]>([:])
    /// One save at a time: devices on several lanes share a backend (and its temporary file).
    private let writing = NSLock()

    /// Reads every saved backend (one that cannot be read is moved aside and logged).
    init(stateDirectory: URL, log: Logger) throws {
        directory = stateDirectory.appendingPathComponent("backends", isDirectory: true)
        self.log = log
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var stored: [StoredBackend] = []
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let path = directory.appendingPathComponent(file).path
            do {
                let backend = try JSONDecoder().decode(StoredBackend.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                guard "\(backend.name).json" == file else { throw CocoaError(.fileReadCorruptFile) }
                stored.append(backend)
            } catch {
                let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
                try? FileManager.default.moveItem(atPath: path, toPath: aside)
                log.error("backend file \(file) could not be read (\(error)); moved aside to \(aside)")
            }
        }
        servers = Servers(restoring: stored)
        saved.withLock { saved in
            for backend in servers.all { saved[backend.name] = backend.revision }
        }
        if !stored.isEmpty { log.info("backends restored: \(stored.map(\.name).joined(separator: ", "))") }
    }

    /// Saves every backend that changed since it was last saved. Throws when one could not be
    /// written (the caller's request then fails: what it changed would not survive a restart).
    func saveChanged() throws {
        writing.lock()
        defer { writing.unlock() }
        for backend in servers.all {
            let revision = backend.revision
            guard saved.withLock({ $0[backend.name] }) != revision else { continue }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let bytes = try encoder.encode(backend.stored)
            try AtomicFile.replace(
                directory.appendingPathComponent("\(backend.name).json").path, with: Array(bytes), in: directory.path)
            saved.withLock { $0[backend.name] = revision }
        }
    }
}

extension Array {
    /// The array, or nil when empty (an optional field left out of a record).
    var nonEmpty: Self? { isEmpty ? nil : self }
}
