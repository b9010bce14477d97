import BuiltInApps
@_spi(Fuzzing) import ClarityDaemon
import Foundation
import SimulatediOS

/// A device snapshot file per input (`<name>.<G>.snapshot`, what compaction writes), read and
/// restored as a restart restores it, against the five built-in apps, then run for a day of
/// virtual time. Whatever the bytes, nothing may trap: a damaged file is refused.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.restore(snapshot: Data(bytes: data, count: size), apps: AppRegistration.builtIn)
    return 0
}
