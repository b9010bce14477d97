@_spi(Fuzzing) import ClarityDaemon
import Foundation
import ThePhoneBackend

/// The Phone's backend state per input, restored as a restart restores it: the first line its
/// snapshot file, the rest its journal, whose operations run again (moving the backend's clock,
/// running its jobs). Whatever the bytes, nothing may trap, hang or run out of memory: a damaged
/// file is moved aside.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackend(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.restore(server: .thePhoneBackend, Data(bytes: data, count: size))
    return 0
}

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// One mutation in four sets a number of the file to an edge value (`FuzzEntryPoints
/// .mutateJSONLines`); the others are libFuzzer's own.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    FuzzEntryPoints.mutateJSONLines(data, size: size, capacity: maxSize, seed: seed, mutateBytes: LLVMFuzzerMutate)
}
