import ControlProtocol
import Foundation

/// Answers one NDJSON line (JSON-RPC 2.0 §4–6): parses it, routes each request, and encodes
/// the responses as one `\n`-terminated line with sorted keys.
///
/// A parse error or empty batch is answered with id null; an invalid request with its own
/// error; a notification is executed but not answered, and a batch of only notifications gets
/// no line at all. Bad input is logged as a warning, an unexpected error from a handler as an
/// error (answered -32603); neither stops the daemon.
struct RequestDispatcher: Sendable {
    let router: Router
    let log: Logger

    /// The answer to one line: the bytes to send (nil when nothing is owed) and the actions
    /// to run once they are delivered.
    struct Reply {
        var line: Data?
        var afterDelivery: [@Sendable () -> Void] = []
    }

    private typealias Validated = Result<RPCRequest, RPCRequest.InvalidRequest>

    private static let newline = UInt8(ascii: "\n")

    func respond(to line: Data, connection: Int) -> Reply {
        switch InboundMessage.parse(line) {
        case .failure(let error):
            log.warning("connection \(connection): \(error.message)")
            return Reply(line: encodeLine(RPCResponse(id: .null, error: error)))
        case .success(.single(let item)):
            var reply = Reply()
            if let response = answer(item, connection: connection, afterDelivery: &reply.afterDelivery) {
                reply.line = encodeLine(response)
            }
            return reply
        case .success(.batch(let items)):
            var reply = Reply()
            let responses = items.compactMap {
                answer($0, connection: connection, afterDelivery: &reply.afterDelivery)
            }
            if !responses.isEmpty { reply.line = encodeBatchLine(responses) }
            return reply
        }
    }

    /// The -32004 line sent before a connection whose line overflowed is closed.
    func tooLargeLine(limit: Int) -> Data {
        encodeLine(RPCResponse(id: .null, error: .requestTooLarge(limit: limit)))
    }

    /// The response owed for one batch member or single request; nil for a notification.
    private func answer(
        _ item: Validated, connection: Int, afterDelivery: inout [@Sendable () -> Void]
    ) -> RPCResponse? {
        let request: RPCRequest
        switch item {
        case .failure(let invalid):
            log.warning("connection \(connection): \(invalid.error.message)")
            return RPCResponse(id: invalid.id, error: invalid.error)
        case .success(let valid):
            request = valid
        }
        let outcome: RPCResponse.Outcome
        do {
            let reply = try router.route(request.method, params: request.params)
            if let action = reply.afterDelivery { afterDelivery.append(action) }
            outcome = .result(reply.result)
        } catch let error as RPCError {
            outcome = .error(error)
        } catch {
            log.error("connection \(connection): \(request.method) failed: \(error)")
            outcome = .error(.internalError("\(request.method) failed: \(error)"))
        }
        guard let id = request.id else { return nil }
        return RPCResponse(id: id, outcome: outcome)
    }

    private func encodeLine(_ response: RPCResponse) -> Data {
        var line = encode(response)
        line.append(Self.newline)
        return line
    }

    private func encodeBatchLine(_ responses: [RPCResponse]) -> Data {
        var line = Data("[".utf8)
        for (index, response) in responses.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(encode(response))
        }
        line.append(contentsOf: [UInt8(ascii: "]"), Self.newline])
        return line
    }

    /// One response as JSON. A result that cannot be encoded (a NaN, say) is a bug in its
    /// handler: it is logged and answered -32603 instead.
    private func encode(_ response: RPCResponse) -> Data {
        do {
            return try JSONWire.encode(response)
        } catch {
            log.error("cannot encode the response to id \(response.id): \(error)")
            let fallback = RPCResponse(id: response.id, error: .internalError("the result could not be encoded"))
            return (try? JSONWire.encode(fallback)) ?? Data()
        }
    }
}
