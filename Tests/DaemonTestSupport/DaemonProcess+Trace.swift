import ControlProtocol

extension DaemonProcess {
    /// Every trace event of `device` after `since`, paged as `clarityctl trace` pages them.
    public func trace(of device: String, since: Int = 0) throws -> [JSONValue] {
        var events: [JSONValue] = []
        var last = since
        while let page = try call("trace.get", ["device": .string(device), "since": .int(last)]).arrayValue,
            let seq = page.last?["seq"]?.intValue
        {
            events += page
            last = seq
        }
        return events
    }
}
