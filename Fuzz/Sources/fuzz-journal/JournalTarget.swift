@_spi(Fuzzing) import ClarityDaemon
import Foundation

/// A journal file per input, read as a restart reads it (its header, then every entry up to the
/// first that does not read). Whatever the bytes, nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.readJournal(Data(bytes: data, count: size))
    return 0
}
