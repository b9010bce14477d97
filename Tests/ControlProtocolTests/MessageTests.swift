import ControlProtocol
import Foundation
import Testing

/// A line is classified as one request or a batch; responses and errors have one wire form.
@Suite struct MessageTests {
    private func parse(_ text: String) -> Result<InboundMessage, RPCError> {
        InboundMessage.parse(Data(text.utf8))
    }

    @Test(arguments: [
        "{", "not json", #"{"jsonrpc":"2.0",}"#, "[1,", "", #"{"jsonrpc":"2.0","extra":[1,}"#, "{\"id\u{01}\":1}",
        #"{"id":1} {"id":2}"#, #"{"id" 1}"#, #"{id:1}"#,
    ])
    func invalidJSONIsAParseError(_ text: String) {
        guard case .failure(let error) = parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(error.code == RPCError.Code.parseError)
    }

    @Test func anEmptyBatchIsAnInvalidRequest() {
        guard case .failure(let error) = parse("[]") else {
            Issue.record("[] was accepted")
            return
        }
        #expect(error.code == RPCError.Code.invalidRequest)
    }

    @Test func aSingleObjectIsOneRequest() throws {
        guard case .single(let item) = try parse(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#).get() else {
            Issue.record("not a single request")
            return
        }
        #expect(try item.get() == RPCRequest(id: .number(1), method: "daemon.ping"))
    }

    /// A single request's line is read without building its object
    /// (`JSONReader.parse(_:keepingMembers:)`): it must validate exactly as the whole object does.
    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#,
        #"{"method":"a","method":"b","jsonrpc":"2.0","id":"x"}"#,
        #"{"id":1,"id":2,"jsonrpc":"2.0","method":"m"}"#,
        #"{"\u006dethod":"m","jsonrpc":"2.0","id":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","extra":{"deep":[1,2,{"x":null}],"method":"n"}}"#,
        #" { "id" : 2 , "jsonrpc" : "2.0" , "method" : "m" , "params" : {"device":"d"} } "#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":5}"#,
        #"{"id":[1],"jsonrpc":"2.0","method":"m"}"#,
        #"{"jsonrpc":"1.0","id":3,"method":"m"}"#,
        #"{"méthod":"m","jsonrpc":"2.0","id":4}"#,
        #"{"id":5,"jsonrpc":"2.0","method\"":"m"}"#,
        #"{"id":6,"jsonrpc":"2.0","method":"m","params":null}"#,
        "{}",
    ])
    func aRequestLineValidatesAsItsWholeObjectWould(_ text: String) throws {
        guard case .single(let item) = try parse(text).get() else {
            Issue.record("not a single request")
            return
        }
        let whole = try JSONValue(parsing: Data(text.utf8))
        switch (item, RPCRequest.validate(whole)) {
        case (.success(let read), .success(let built)): #expect(read == built)
        case (.failure(let read), .failure(let built)):
            #expect(read.id == built.id)
            #expect(read.error == built.error)
        case (let read, let built): Issue.record("read as \(read), built as \(built)")
        }
    }

    @Test func aBatchValidatesEachMemberOnItsOwn() throws {
        let line = #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},5,{"id":2,"method":"c"}]"#
        guard case .batch(let items) = try parse(line).get() else {
            Issue.record("not a batch")
            return
        }
        #expect(items.count == 4)
        #expect(try items[0].get() == RPCRequest(id: .number(1), method: "a"))
        #expect(try items[1].get().isNotification)
        guard case .failure(let notAnObject) = items[2], case .failure(let noVersion) = items[3] else {
            Issue.record("invalid members were accepted")
            return
        }
        #expect(notAnObject.id == .null)
        #expect(noVersion.id == .number(2))
        #expect(noVersion.error.code == RPCError.Code.invalidRequest)
    }

    @Test func responsesEncodeWithSortedKeysAndDecodeBack() throws {
        let result = RPCResponse(id: .number(1), result: ["pong": true, "version": "0.1.0"])
        #expect(
            try JSONWire.encodeString(result)
                == #"{"id":1,"jsonrpc":"2.0","result":{"pong":true,"version":"0.1.0"}}"#)
        let error = RPCResponse(id: .null, error: .parseError("bad"))
        #expect(
            try JSONWire.encodeString(error)
                == #"{"error":{"code":-32700,"message":"Parse error: bad"},"id":null,"jsonrpc":"2.0"}"#)
        for response in [result, error, RPCResponse(id: .string("s"), result: .null)] {
            #expect(try JSONWire.decode(RPCResponse.self, from: JSONWire.encode(response)) == response)
        }
    }

    /// A result written once (`JSONText`, `daemon.ping`'s) gives the bytes the response would.
    @Test(arguments: [RPCID.number(7), .number(-12_345_678_901), .string("a\"b\\c\u{1}é"), .null])
    func aWrittenResultIsTheResponsesOwnBytes(_ id: RPCID) throws {
        let result: JSONValue = ["pong": true, "version": "0.1.0", "nested": ["z": [1, 2.5, "x"], "a": .null]]
        var written: [UInt8] = []
        JSONWire.append(id: id, result: try JSONText(result), to: &written)
        var whole: [UInt8] = []
        try JSONWire.append(RPCResponse(id: id, result: result), to: &whole)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(try JSONWire.decode(RPCResponse.self, from: Data(written)) == RPCResponse(id: id, result: result))
    }

    @Test func errorConstructorsUseTheProtocolCodes() {
        let cases: [(RPCError, Int)] = [
            (.parseError("x"), -32700), (.invalidRequest("x"), -32600), (.methodNotFound("m"), -32601),
            (.invalidParams(field: "f", reason: "r"), -32602), (.internalError("x"), -32603),
            (.noSuchDevice("d"), -32000), (.deviceExists("d"), -32001), (.unknownName(kind: "app", name: "a"), -32002),
            (.refused(reason: "r", message: "m"), -32003), (.requestTooLarge(limit: 10), -32004),
            (.scenarioInvalid(field: "f", reason: "r"), -32005),
        ]
        for (error, code) in cases { #expect(error.code == code) }
        #expect(RPCError.invalidParams(field: "args.apps[1]", reason: "must be a string").data
            == ["field": "args.apps[1]", "reason": "must be a string"])
        #expect(RPCError.requestTooLarge(limit: 10).data == ["limit": 10])
    }
}
