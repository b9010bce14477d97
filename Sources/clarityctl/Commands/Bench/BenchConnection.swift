import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One bench client: its own connection, driven from its own thread. It sends a batch of
/// requests, reads that many response lines, and repeats; each response's latency is the time
/// from the batch's send to the read that completed it.
///
/// Responses are parsed minimally (``BenchWorkload/Reply``); the read buffer is reused for the whole run.
final class BenchConnection {
    /// What one client measured.
    struct Outcome: Sendable {
        var latencies: [UInt64] = []
        var errors = 0
        /// The first few error responses, for the report.
        var errorSamples: [String] = []
    }

    /// How many error responses a report shows.
    static let keptErrorSamples = 3

    private let socket: UnixSocket
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    /// Received bytes not yet consumed are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    private var lastReadTime: UInt64 = 0

    init(socketPath: String, idleTimeout: Double?) throws {
        socket = try UnixSocket(connectingTo: socketPath, idleTimeout: idleTimeout)
    }

    deinit {
        buffer.deallocate()
    }

    /// Sends `requests` requests of `workload`, `pipeline` at a time.
    func run(_ workload: BenchWorkload, requests: Int, pipeline: Int) throws -> Outcome {
        var outcome = Outcome()
        outcome.latencies.reserveCapacity(requests)
        var sent = 0
        while sent < requests {
            let count = min(pipeline, requests - sent)
            let batch = workload.batch(startingAt: sent)
            let sendTime = DispatchTime.now().uptimeNanoseconds
            try batch.bytes.withUnsafeBytes { bytes in
                try socket.write(UnsafeRawBufferPointer(rebasing: bytes[..<batch.lineEnds[count - 1]]))
            }
            for _ in 0..<count {
                let line = try nextLine()
                outcome.latencies.append(lastReadTime - sendTime)
                if !workload.reply.isSuccess(line) {
                    outcome.errors += 1
                    if outcome.errorSamples.count < Self.keptErrorSamples {
                        outcome.errorSamples.append(String(decoding: line, as: UTF8.self))
                    }
                }
            }
            sent += count
        }
        return outcome
    }

    /// The next response line (without `\n`), valid until the next call.
    private func nextLine() throws -> UnsafeRawBufferPointer {
        while true {
            if start < end, let newline = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start) {
                let length = buffer.baseAddress!.distance(to: newline) - start
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)])
                start += length + 1
                return line
            }
            try fill()
        }
    }

    /// Reads more bytes, first moving the unconsumed ones to the front (and growing for long lines).
    private func fill() throws {
        if start > 0 {
            let pending = end - start
            if pending > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            }
            start = 0
            end = pending
        }
        if end == buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = larger
        }
        let count = try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        if count == 0 { throw ClientError.closedByDaemon }
        lastReadTime = DispatchTime.now().uptimeNanoseconds
        end += count
    }
}
