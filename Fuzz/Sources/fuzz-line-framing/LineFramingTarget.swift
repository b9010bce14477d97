@_spi(Fuzzing) import ClarityDaemon

/// The input's first byte picks the line limit (1–256 bytes) and the next ones where the stream
/// is cut into chunks; the rest is the stream. The lines LineBuffer hands out must be those of
/// the reference below, whatever the chunking: a line ends at `\n`, a `\r` before it is dropped,
/// lines of only spaces and tabs are skipped, and a line over the limit ends the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let limit = Int(input[0]) + 1
    let cuts = Int(input[1] % 8)
    guard input.count >= 2 + cuts else { return 0 }
    let stream = Array(input[(2 + cuts)...])
    var chunks: [[UInt8]] = []
    var from = 0
    for cut in input[2..<(2 + cuts)] {
        let to = min(stream.count, from + Int(cut))
        chunks.append(Array(stream[from..<to]))
        from = to
    }
    chunks.append(Array(stream[from...]))
    let framed = FuzzEntryPoints.frameLines(chunks, maxLineBytes: limit)
    let expected = referenceLines(stream, limit: limit)
    if framed.lines != expected.lines || framed.tooLarge != expected.tooLarge {
        fatalError("LineBuffer framed \(framed) where the reference frames \(expected), limit \(limit), chunks \(chunks.map(\.count))")
    }
    return 0
}

/// The protocol's framing rules (docs/protocol.md, Transport and framing), written the slow,
/// obvious way.
func referenceLines(_ stream: [UInt8], limit: Int) -> (lines: [[UInt8]], tooLarge: Bool) {
    var lines: [[UInt8]] = []
    var rest = stream[...]
    while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
        var line = Array(rest[..<newline])
        rest = rest[(newline + 1)...]
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.count > limit { return (lines, true) }
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
        lines.append(line)
    }
    let held = rest.count - (rest.last == UInt8(ascii: "\r") ? 1 : 0)
    return (lines, held > limit)
}
