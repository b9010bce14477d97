import ControlProtocol
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client of the control socket.
///
/// Everything happens on the connection's own serial queue: a read source feeds bytes to the
/// ``LineFramer``, each complete line is answered in order through the ``RequestDispatcher``,
/// and the answers go to an output buffer that is sent at once and, when the client reads
/// slowly, drained by a write source. A client that stalls — half a line, or never reading —
/// holds only this queue. Once more than ``outputHighWater`` bytes wait unsent, reading pauses
/// until they drain, so such a client cannot grow the daemon without bound.
///
/// A line over the limit is answered -32004 and the connection closes once that is delivered;
/// at end of input a final unterminated line is still answered. The descriptor is closed only
/// after both sources are cancelled (PLATFORM-NOTES).
///
/// `@unchecked Sendable`: all mutable state is confined to `queue`.
final class Connection: @unchecked Sendable {
    let id: Int
    private let descriptor: Int32
    private let queue: DispatchQueue
    private let readSource: DispatchSourceRead
    private let writeSource: DispatchSourceWrite
    private let dispatcher: RequestDispatcher
    private let log: Logger
    private let onClosed: @Sendable (Int) -> Void

    private var framer: LineFramer
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    private var output = Data()
    private var sentBytes = 0
    private var afterDelivery: [@Sendable () -> Void] = []
    private var readingPaused = false
    private var writeSourceRunning = false
    private var closeWhenDelivered = false
    private var hungUp = false
    private var liveSources = 2

    /// Unsent bytes beyond which the connection stops reading requests.
    static let outputHighWater = 4 * 1024 * 1024
    /// Reads per wake-up, so one busy client yields its thread to the others now and then.
    private static let readsPerEvent = 16

    init(
        id: Int, descriptor: Int32, maxLineBytes: Int, dispatcher: RequestDispatcher, log: Logger,
        onClosed: @escaping @Sendable (Int) -> Void
    ) {
        self.id = id
        self.descriptor = descriptor
        self.dispatcher = dispatcher
        self.log = log
        self.onClosed = onClosed
        framer = LineFramer(maxLineBytes: maxLineBytes)
        queue = DispatchQueue(label: "clarityd.connection.\(id)")
        readSource = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        readSource.setEventHandler { [self] in readAvailable() }
        writeSource.setEventHandler { [self] in deliver() }
        readSource.setCancelHandler { [self] in sourceCancelled() }
        writeSource.setCancelHandler { [self] in sourceCancelled() }
    }

    deinit {
        readBuffer.deallocate()
    }

    func start() { readSource.activate() }

    private func readAvailable() {
        for _ in 0..<Self.readsPerEvent {
            let count = read(descriptor, readBuffer.baseAddress, readBuffer.count)
            if count > 0 {
                consume(Data(bytes: readBuffer.baseAddress!, count: count))
                if closeWhenDelivered || count < readBuffer.count { break }
            } else if count == 0 {
                inputEnded()
                break
            } else if errno == EINTR {
                continue
            } else if SystemCall.wouldBlock {
                break
            } else {
                log.debug("connection \(id): \(SystemCallError("read"))")
                hangUp()
                return
            }
        }
        if output.count - sentBytes > Self.outputHighWater { pauseReading() }
        deliver()
    }

    private func consume(_ bytes: Data) {
        for frame in framer.push(bytes) {
            switch frame {
            case .line(let line):
                let reply = dispatcher.respond(to: line, connection: id)
                if let answer = reply.line { output.append(answer) }
                afterDelivery.append(contentsOf: reply.afterDelivery)
            case .tooLarge:
                log.warning("connection \(id): request line over \(framer.maxLineBytes) bytes; closing it")
                output.append(dispatcher.tooLargeLine(limit: framer.maxLineBytes))
                finishAfterDelivery()
            }
        }
    }

    /// The client sent end of input: answer what it sent, then close.
    private func inputEnded() {
        if framer.pendingByteCount > 0 { consume(Data([UInt8(ascii: "\n")])) }
        finishAfterDelivery()
    }

    private func finishAfterDelivery() {
        closeWhenDelivered = true
        pauseReading()
    }

    /// Sends what is buffered; whatever the socket doesn't take now waits for the write source.
    private func deliver() {
        guard !hungUp else { return }
        while sentBytes < output.count {
            let count = output.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + sentBytes, bytes.count - sentBytes, SystemCall.sendFlags)
            }
            if count >= 0 {
                sentBytes += count
            } else if errno == EINTR {
                continue
            } else if SystemCall.wouldBlock {
                setWriteSourceRunning(true)
                return
            } else {
                log.debug("connection \(id): client went away: \(SystemCallError("send"))")
                hangUp()
                return
            }
        }
        if output.count > Self.outputHighWater {
            output = Data()
        } else {
            output.removeAll(keepingCapacity: true)
        }
        sentBytes = 0
        setWriteSourceRunning(false)
        runAfterDelivery()
        if closeWhenDelivered {
            hangUp()
        } else if readingPaused {
            readingPaused = false
            readSource.resume()
        }
    }

    private func runAfterDelivery() {
        let actions = afterDelivery
        afterDelivery.removeAll()
        for action in actions { action() }
    }

    private func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        readSource.suspend()
    }

    private func setWriteSourceRunning(_ running: Bool) {
        guard running != writeSourceRunning else { return }
        writeSourceRunning = running
        if running { writeSource.resume() } else { writeSource.suspend() }
    }

    /// Stops both sources; the descriptor closes when both have acknowledged. Actions waiting
    /// for delivery still run: a client that asked for shutdown and left still gets it.
    private func hangUp() {
        guard !hungUp else { return }
        hungUp = true
        runAfterDelivery()
        if readingPaused { readSource.resume() }
        readSource.cancel()
        if !writeSourceRunning { writeSource.resume() }
        writeSource.cancel()
    }

    private func sourceCancelled() {
        liveSources -= 1
        guard liveSources == 0 else { return }
        close(descriptor)
        log.debug("connection \(id) closed")
        onClosed(id)
    }
}
