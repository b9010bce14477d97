import ControlProtocol
import Foundation

/// Answers one NDJSON line (JSON-RPC 2.0 §4–6): parses it, routes each request, and encodes
/// the responses as one `\n`-terminated line with sorted keys.
///
/// A parse error or empty batch is answered with id null; an invalid request with its own
/// error; a notification is executed but not answered, and a batch of only notifications gets
/// no line at all. Bad input is logged as a warning, an unexpected error from a handler as an
/// error (answered -32603); neither stops the daemon. Both are throttled per connection
/// (``Logger/log(_:about:kind:_:)``): a client cannot fill the log.
///
/// A batch may hold at most ``maxBatchRequests`` members; a longer one is refused whole
/// (-32600, id null). Its members run in order, each answer encoded as soon as it is ready; once
/// the answers have taken ``maxBatchResponseBytes``, no further member runs: each that has an id
/// is answered -32004 naming the limit, and notifications are skipped.
///
/// Responses are written straight into the connection's output bytes by ``JSONOutput``, which
/// gives the bytes `JSONEncoder` would.
struct RequestDispatcher: Sendable {
    let router: Router
    let log: Logger
    /// All clients' answers not yet sent (``ConnectionRegistry``): a large answer must fit under it.
    let unsentAnswers: ByteBudget

    /// The largest answer one request may get: as much as the answers of all clients may hold
    /// unsent (``ConnectionRegistry/maxUnsentOutputBytes``). A larger one is withheld (-32004), so
    /// that clients that never read cannot hold the daemon's memory (docs/performance.md,
    /// "RequestDispatcher: answers capped").
    static let maxAnswerBytes = ConnectionRegistry.maxUnsentOutputBytes

    /// Answers above this size are withheld too when they would take all clients' unsent answers
    /// past their cap; smaller ones always go out, so ordinary traffic never waits on it.
    static let budgetedAnswerBytes = 1024 * 1024

    /// Most members one batch may hold. 1000 is far more than any client of this daemon sends at
    /// once (clarityctl sends none) and bounds what one line can make the daemon do and log
    /// (docs/performance.md, "RequestDispatcher: batches capped").
    static let maxBatchRequests = 1000

    /// Bytes the answers to one batch may take before the rest of it is refused unrun (-32004):
    /// as much as a connection may hold unsent (``Connection/outputHighWater``), so a batch can
    /// never make its answer line more than this plus the one answer that crossed it.
    static let maxBatchResponseBytes = 4 * 1024 * 1024

    /// Where a line may be answered (see ``Connection``).
    enum Placement: Equatable {
        /// At once, on the connection's event loop: the answer never waits for a device.
        case inline
        /// On the lane of this device (``DeviceLanes``).
        case device(String)
        /// On a thread of its own (a batch, or a method that visits every device).
        case anywhere
    }

    /// What one request is answered with: a response, or a result written once already.
    private enum Answer {
        case response(RPCResponse)
        case written(id: RPCID, result: JSONText)

        var id: RPCID {
            switch self {
            case .response(let response): response.id
            case .written(let id, _): id
            }
        }
    }

    typealias Parsed = Result<InboundMessage, RPCError>
    private typealias Validated = Result<RPCRequest, RPCRequest.InvalidRequest>

    /// One line parsed; when it is a single request, its route, looked up once for both where
    /// it runs and what answers it; and where it may be answered.
    struct ParsedLine: Sendable {
        let message: Parsed
        let route: Router.Route?
        /// Where the line may be answered without keeping other connections waiting: where its
        /// method runs (``Router/RunsOn``); a batch on a thread of its own unless all its members
        /// run on the event loop.
        let placement: Placement
    }

    private static let newline = UInt8(ascii: "\n")

    func parse(_ line: UnsafeRawBufferPointer) -> ParsedLine {
        let message = InboundMessage.parse(line, maxBatchRequests: Self.maxBatchRequests)
        switch message {
        case .failure, .success(.single(.failure)):
            return ParsedLine(message: message, route: nil, placement: .inline)
        case .success(.single(.success(let request))):
            let route = router.route(for: request.method)
            let placement: Placement =
                switch route?.runsOn ?? .eventLoop {
                case .eventLoop: .inline
                case .deviceLane: .device(request.params?["device"]?.stringValue ?? "default")
                case .ownThread: .anywhere
                }
            return ParsedLine(message: message, route: route, placement: placement)
        case .success(.batch(let items)):
            let waits = items.contains { item in
                guard case .success(let request) = item else { return false }
                return router.runsOn(request.method) != .eventLoop
            }
            return ParsedLine(message: message, route: nil, placement: waits ? .anywhere : .inline)
        }
    }

    /// Appends the answer to `line`, if one is owed, to `output`; returns the actions to run
    /// once it is delivered. Journal lines the answer must wait for are added to the caller's `waits`.
    func respond(to line: ParsedLine, caller: Caller, into output: inout [UInt8]) -> [@Sendable () -> Void] {
        let connection = caller.connection
        var afterDelivery: [@Sendable () -> Void] = []
        switch line.message {
        case .failure(let error):
            let kind = error.code == RPCError.Code.parseError ? "parse error" : "invalid request"
            log.log(.warning, about: "connection \(connection)", kind: kind, error.message)
            appendLine(.response(RPCResponse(id: .null, error: error)), to: &output)
        case .success(.single(let item)):
            if let response = answer(item, route: line.route, caller: caller, afterDelivery: &afterDelivery) {
                appendLine(response, to: &output)
            }
        case .success(.batch(let items)):
            appendBatch(items, caller: caller, afterDelivery: &afterDelivery, to: &output)
        }
        return afterDelivery
    }

    /// Runs a batch's members in order and appends the one line that answers them, if any is owed
    /// (see ``maxBatchResponseBytes``).
    private func appendBatch(
        _ items: [Validated], caller: Caller, afterDelivery: inout [@Sendable () -> Void], to output: inout [UInt8]
    ) {
        let connection = caller.connection
        let start = output.count
        output.append(UInt8(ascii: "["))
        var answered = 0
        var notRun = 0
        for item in items {
            let answers = output.count - start - 1
            if answers >= Self.maxBatchResponseBytes, case .success(let request) = item {
                notRun += 1
                guard let id = request.id else { continue }
                if answered > 0 { output.append(UInt8(ascii: ",")) }
                append(.response(RPCResponse(id: id, error: .batchResponseTooLarge(limit: Self.maxBatchResponseBytes))), to: &output)
                answered += 1
                continue
            }
            guard let response = answer(item, caller: caller, afterDelivery: &afterDelivery) else { continue }
            if answered > 0 { output.append(UInt8(ascii: ",")) }
            append(response, to: &output)
            answered += 1
        }
        if answered == 0 {
            output.removeSubrange(start...)
        } else {
            output.append(contentsOf: [UInt8(ascii: "]"), Self.newline])
        }
        if notRun > 0 {
            log.log(
                .warning, about: "connection \(connection)", kind: "batch answers over the limit",
                "the answers to a batch took over \(Self.maxBatchResponseBytes) bytes; \(notRun) of its \(items.count) requests were not run")
        }
    }

    /// The line answering `error` with id null, sent before a connection is closed for it
    /// (a line over the limit, unfinished lines past ``ConnectionRegistry/maxPendingInputBytes``).
    func errorLine(_ error: RPCError) -> [UInt8] {
        var line: [UInt8] = []
        appendLine(.response(RPCResponse(id: .null, error: error)), to: &line)
        return line
    }

    /// The response owed for one batch member or single request (run by `route` when it was
    /// looked up already); nil for a notification.
    private func answer(
        _ item: Validated, route: Router.Route? = nil, caller: Caller, afterDelivery: inout [@Sendable () -> Void]
    ) -> Answer? {
        let connection = caller.connection
        let request: RPCRequest
        switch item {
        case .failure(let invalid):
            log.log(.warning, about: "connection \(connection)", kind: "invalid request", invalid.error.message)
            return .response(RPCResponse(id: invalid.id, error: invalid.error))
        case .success(let valid):
            request = valid
        }
        let outcome: RPCResponse.Outcome
        var caller = caller
        caller.requestID = request.id
        do {
            let reply = try router.route(request.method, params: request.params, caller: caller, by: route)
            if let action = reply.afterDelivery { afterDelivery.append(action) }
            switch reply.result {
            case .value(let value): outcome = .result(value)
            case .written(let text):
                guard let id = request.id else { return nil }
                return .written(id: id, result: text)
            }
        } catch let error as RPCError {
            outcome = .error(error)
        } catch {
            log.log(.error, about: "connection \(connection)", kind: "internal error", "\(request.method) failed: \(error)")
            outcome = .error(.internalError("\(request.method) failed: \(error)"))
        }
        guard let id = request.id else { return nil }
        return .response(RPCResponse(id: id, outcome: outcome))
    }

    private func appendLine(_ answer: Answer, to output: inout [UInt8]) {
        append(answer, to: &output)
        output.append(Self.newline)
    }

    /// One answer as JSON. A result that cannot be encoded (a NaN, say) is a bug in its
    /// handler: it is logged and answered -32603 instead. One over ``maxAnswerBytes``, or over
    /// ``budgetedAnswerBytes`` while the daemon holds too many unread answers, is withheld:
    /// answered -32004 instead.
    private func append(_ answer: Answer, to output: inout [UInt8]) {
        let start = output.count
        switch answer {
        case .written(let id, let result):
            JSONWire.append(id: id, result: result, to: &output)
        case .response(let response):
            do {
                try JSONWire.append(response, to: &output)
            } catch {
                output.removeSubrange(start...)
                log.error("cannot encode the response to id \(response.id): \(error)")
                let fallback = RPCResponse(id: response.id, error: .internalError("the result could not be encoded"))
                try? JSONWire.append(fallback, to: &output)
            }
        }
        let bytes = output.count - start
        guard bytes > Self.budgetedAnswerBytes else { return }
        let unread = unsentAnswers.total
        let withheld: RPCError
        if bytes > Self.maxAnswerBytes {
            withheld = .answerTooLarge(bytes: bytes, limit: Self.maxAnswerBytes)
        } else if unread + bytes > unsentAnswers.limit {
            withheld = .answerTooLarge(bytes: bytes, limit: unsentAnswers.limit, unread: unread)
        } else {
            return
        }
        output.removeSubrange(start...)
        log.log(.warning, about: "answers", kind: "answer withheld", withheld.message)
        try? JSONWire.append(RPCResponse(id: answer.id, error: withheld), to: &output)
    }
}
