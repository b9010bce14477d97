import ControlProtocol

/// The field a refused call names (`data.field`), `code N` for an error without one, nil when the
/// call went through: how a test says which argument the daemon refused.
public func errorField(_ body: () throws -> JSONValue) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as RPCError {
        return error.data?["field"]?.stringValue ?? "code \(error.code)"
    } catch {
        return "\(error)"
    }
}
