import DeviceActors
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Device state on disk: one JSON file per device in `<stateDir>/devices/`.
///
/// A save is durable before it returns: written to a temporary file, `fsync`ed, renamed over
/// the old file, and the directory `fsync`ed, so a write acknowledged to a client survives
/// `kill -9` and a crash never leaves a half-written file. A file that does not decode at start
/// is reported and moved aside (`<name>.json.corrupt-<unix time>`), never silently wiped.
struct DeviceStateStore: Sendable {
    let directory: URL
    let log: Logger

    init(stateDirectory: URL, log: Logger) throws {
        directory = stateDirectory.appendingPathComponent("devices", isDirectory: true)
        self.log = log
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent("\(name).json") }

    /// Every readable snapshot; corrupt files are moved aside and logged.
    func loadAll() -> [DeviceSnapshot] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var snapshots: [DeviceSnapshot] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            do {
                let data = try Data(contentsOf: url)
                snapshots.append(try JSONDecoder().decode(DeviceSnapshot.self, from: data))
            } catch {
                let aside = url.path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
                rename(url.path, aside)
                log.error("state file \(url.path) is corrupt (\(error)); moved aside to \(aside), device starts fresh")
            }
        }
        return snapshots
    }

    func save(_ snapshot: DeviceSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(snapshot)
        let target = file(snapshot.name)
        let temporary = target.path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateError.io("open \(temporary)", errno) }
        defer { close(fd) }
        var written = 0
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StateError.io("write \(temporary)", errno)
                }
                written += n
            }
        }
        guard fsync(fd) == 0 else { throw StateError.io("fsync \(temporary)", errno) }
        guard rename(temporary, target.path) == 0 else { throw StateError.io("rename \(temporary)", errno) }
        syncDirectory()
    }

    func remove(_ name: String) {
        unlink(file(name).path)
        syncDirectory()
    }

    private func syncDirectory() {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    enum StateError: Error, CustomStringConvertible {
        case io(String, Int32)

        var description: String {
            switch self {
            case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
            }
        }
    }
}
