import ControlProtocol
import Foundation
import Testing

/// One request object is checked against JSON-RPC 2.0 §4, and every refusal carries the id to answer with.
@Suite struct RequestValidationTests {
    private func validate(_ text: String) throws -> Result<RPCRequest, RPCRequest.InvalidRequest> {
        RPCRequest.validate(try JSONWire.decode(JSONValue.self, from: Data(text.utf8)))
    }

    private func request(_ text: String) throws -> RPCRequest {
        try validate(text).get()
    }

    private struct Accepted: Error {}

    private func refusal(_ text: String) throws -> RPCRequest.InvalidRequest {
        guard case .failure(let refusal) = try validate(text) else { throw Accepted() }
        return refusal
    }

    @Test func acceptsEveryKindOfId() throws {
        #expect(try request(#"{"jsonrpc":"2.0","id":7,"method":"daemon.ping"}"#).id == .number(7))
        #expect(try request(#"{"jsonrpc":"2.0","id":"a-1","method":"daemon.ping"}"#).id == .string("a-1"))
        #expect(try request(#"{"jsonrpc":"2.0","id":null,"method":"daemon.ping"}"#).id == .null)
    }

    @Test func aRequestWithoutIdIsANotification() throws {
        let notification = try request(#"{"jsonrpc":"2.0","method":"clock.advance","params":{"seconds":5}}"#)
        #expect(notification.isNotification)
        #expect(notification.id == nil)
        #expect(try !request(#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).isNotification)
    }

    @Test func keepsObjectAndArrayParams() throws {
        let object = try request(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"device":"d"}}"#)
        #expect(object.params == ["device": "d"])
        #expect(try request(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}"#).params == [1, 2])
        #expect(try request(#"{"jsonrpc":"2.0","id":1,"method":"m"}"#).params == nil)
    }

    @Test(arguments: ["5", #""text""#, "null", "true"])
    func refusesANonObject(_ text: String) throws {
        let refusal = try refusal(text)
        #expect(refusal.id == .null)
        #expect(refusal.error.code == RPCError.Code.invalidRequest)
    }

    @Test(arguments: ["1.5", "true", "[1]", #"{"n":1}"#])
    func refusesAnIdOfTheWrongTypeAndAnswersWithNull(_ id: String) throws {
        let refusal = try refusal(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#)
        #expect(refusal.id == .null)
        #expect(refusal.error.code == RPCError.Code.invalidRequest)
    }

    @Test(arguments: [#""jsonrpc":"1.0","#, #""jsonrpc":2.0,"#, #""jsonrpc":null,"#, ""])
    func refusesAWrongOrMissingVersionAndAnswersWithTheId(_ version: String) throws {
        let refusal = try refusal(#"{\#(version)"id":3,"method":"m"}"#)
        #expect(refusal.id == .number(3))
        #expect(refusal.error.code == RPCError.Code.invalidRequest)
    }

    @Test(arguments: ["", #","method":5"#, #","method":null"#, #","method":["m"]"#])
    func refusesAMissingOrNonStringMethod(_ method: String) throws {
        let refusal = try refusal(#"{"jsonrpc":"2.0","id":"q"\#(method)}"#)
        #expect(refusal.id == .string("q"))
        #expect(refusal.error.code == RPCError.Code.invalidRequest)
    }

    @Test(arguments: ["5", #""s""#, "true", "null"])
    func refusesParamsThatAreNeitherObjectNorArray(_ params: String) throws {
        let refusal = try refusal(#"{"jsonrpc":"2.0","id":4,"method":"m","params":\#(params)}"#)
        #expect(refusal.id == .number(4))
        #expect(refusal.error.code == RPCError.Code.invalidRequest)
    }

    @Test func anInvalidNotificationIsAnsweredWithNull() throws {
        let refusal = try refusal(#"{"jsonrpc":"2.0","method":7}"#)
        #expect(refusal.id == .null)
    }

    @Test func theWireFormRoundTrips() throws {
        for original in [
            RPCRequest(id: .number(1), method: "daemon.ping"),
            RPCRequest(id: .string("x"), method: "event", params: ["type": "lock"]),
            RPCRequest(id: .null, method: "m", params: [1]),
            RPCRequest(id: nil, method: "notify"),
        ] {
            #expect(try RPCRequest.validate(original.json).get() == original)
        }
        #expect(RPCRequest(id: nil, method: "m").json == ["jsonrpc": "2.0", "method": "m"])
    }
}
