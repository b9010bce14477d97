@_spi(Fuzzing) import ClarityDaemon
import Foundation

/// The Phone's backend state per input, restored as a restart restores it: the first line its
/// snapshot file, the rest its journal, whose operations run again (moving the backend's clock,
/// running its jobs). Whatever the bytes, nothing may trap, hang or run out of memory: a damaged
/// file is moved aside.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackend(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.restoreBackend(Data(bytes: data, count: size))
    return 0
}
