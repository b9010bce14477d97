import BuiltInApps
@_spi(Fuzzing) import ClarityDaemon
import SimulatediOS

/// A scenario file per input, decoded against the five built-in apps as `scenario.run` and
/// `clarityctl explore` decode it. Whatever the bytes, nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.scenario(UnsafeRawBufferPointer(start: data, count: size), apps: AppRegistration.builtIn)
    return 0
}
