@_spi(Fuzzing) import ClarityDaemon
import Foundation

/// The JSON reader the daemon reads every request and journal line with. What it accepts must
/// be JSON to Foundation too, mean the same value, and come back unchanged through the writer
/// every answer is written with (the journal's round trip). Read as a request line, without
/// building its object, it must validate as its whole value does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    guard FuzzEntryPoints.requestLineAgreesWithItsValue(raw) else {
        fatalError("read as a request line, this means something else: \(String(decoding: raw, as: UTF8.self).debugDescription)")
    }
    guard let value = FuzzEntryPoints.parseJSON(raw) else { return 0 }
    let bytes = Data(raw)
    guard (try? JSONSerialization.jsonObject(with: bytes, options: .fragmentsAllowed)) != nil else {
        fatalError("the reader accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    guard let written = try? FuzzEntryPoints.encodeJSON(value) else { return 0 }
    let again = written.withUnsafeBytes { FuzzEntryPoints.parseJSON($0) }
    guard again == value else {
        fatalError("\(value) was written as \(String(decoding: written, as: UTF8.self)) and read back as \(String(describing: again))")
    }
    return 0
}
