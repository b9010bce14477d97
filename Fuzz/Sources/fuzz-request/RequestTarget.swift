import BuiltInApps
@_spi(Fuzzing) import ClarityDaemon
import SimulatediOS

/// One request line (or batch) per input, run on a fresh device as a restart replays a journal:
/// the line parsed, each device method's params decoded strictly and its work done. The device
/// runs Clarity, or the built-in app a `device.create` of the line names.
/// Whatever the bytes, nothing may trap; a refusal is an answer, not a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.perform(requestLine: UnsafeRawBufferPointer(start: data, count: size), apps: AppRegistration.builtIn)
    return 0
}
