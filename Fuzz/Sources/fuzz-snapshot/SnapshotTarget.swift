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

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// One mutation in four sets a number of the snapshot to an edge value (`FuzzEntryPoints
/// .mutateJSONLines`): byte mutations alone almost never write `Int64.max` into a usage total.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    FuzzEntryPoints.mutateJSONLines(data, size: size, capacity: maxSize, seed: seed, mutateBytes: LLVMFuzzerMutate)
}
