#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replaced whole: device snapshots and journal headers, saved backends.
enum AtomicFile {
    /// Writes `bytes` to a new temporary file, syncs it, renames it over `path` and syncs
    /// `directory` (the one holding `path`): after a crash `path` holds the old bytes or the new,
    /// never a mix.
    /// `syncing` false (durability `write`): the same, without the syncs (survives `kill -9`,
    /// not an OS crash).
    static func replace(_ path: String, with bytes: [UInt8], in directory: String, syncing: Bool = true) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw DeviceStateStore.StoreError.io("open \(temporary)", errno) }
        defer { close(fd) }
        try writeAll(bytes, to: fd, naming: temporary)
        guard !syncing || fsync(fd) == 0 else { throw DeviceStateStore.StoreError.io("fsync \(temporary)", errno) }
        guard rename(temporary, path) == 0 else { throw DeviceStateStore.StoreError.io("rename \(temporary)", errno) }
        if syncing { syncDirectory(directory) }
    }

    /// Writes every byte of `bytes` to `fd` (the file `path`, for errors), again after a short
    /// write or an interrupted one.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, naming path: String) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DeviceStateStore.StoreError.io("write \(path)", errno)
            }
            written += count
        }
    }

    /// Syncs a directory, so that a rename or unlink in it survives a power cut.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
