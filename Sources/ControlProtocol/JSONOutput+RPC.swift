import JSONValues

/// The JSON-RPC objects, written by ``JSONOutput``'s fast writers: the daemon's reply path.
extension JSONOutput {
    /// A response object, keys sorted (`error`, `id`, `jsonrpc`, `result`).
    public mutating func write(_ response: RPCResponse) throws(Unsupported) {
        switch response.outcome {
        case .result(let result):
            append("{\"id\":")
            write(response.id)
            writeVersion(response.jsonrpc)
            append(",\"result\":")
            try write(result, depth: 1)
            bytes.append(UInt8(ascii: "}"))
        case .error(let error):
            append("{\"error\":")
            try write(error)
            append(",\"id\":")
            write(response.id)
            writeVersion(response.jsonrpc)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A response whose result is written already: the bytes ``write(_:)-(RPCResponse)`` gives
    /// for a response whose result is the value `result` spells.
    public mutating func writeResponse(id: RPCID, result: JSONText) {
        append("{\"id\":")
        write(id)
        append(",\"jsonrpc\":\"2.0\",\"result\":")
        bytes.append(contentsOf: result.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"jsonrpc":` and the version: the one every response carries, `"2.0"`, as bytes known in advance.
    private mutating func writeVersion(_ version: String) {
        if version == "2.0" {
            append(",\"jsonrpc\":\"2.0\"")
        } else {
            bytes.append(UInt8(ascii: ","))
            writeKey("jsonrpc")
            write(version)
        }
    }

    /// An error object: `code`, `data` (when present), `message`.
    public mutating func write(_ error: RPCError) throws(Unsupported) {
        append("{\"code\":")
        write(error.code)
        if let data = error.data {
            append(",\"data\":")
            try write(data, depth: 2)
        }
        append(",\"message\":")
        write(error.message)
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func write(_ id: RPCID) {
        switch id {
        case .string(let string): write(string)
        case .number(let number): write(number)
        case .null: append("null")
        }
    }
}

/// The daemon's reply path through ``JSONWire``.
extension JSONWire {
    /// Appends a response (``append(_:to:)`` without the generic dispatch: the daemon's reply path).
    public static func append(_ response: RPCResponse, to bytes: inout [UInt8]) throws {
        var output = JSONOutput(appendingTo: bytes)
        bytes = []
        defer { bytes = output.bytes }
        let start = output.bytes.count
        do {
            try output.write(response)
        } catch {
            output.bytes.removeSubrange(start...)
            output.bytes.append(contentsOf: try encodeWithFoundation(response))
        }
    }

    /// Appends a response whose result is written already (``JSONText``).
    public static func append(id: RPCID, result: JSONText, to bytes: inout [UInt8]) {
        var output = JSONOutput(appendingTo: bytes)
        bytes = []
        output.writeResponse(id: id, result: result)
        bytes = output.bytes
    }
}
