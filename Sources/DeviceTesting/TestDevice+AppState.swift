import JSONValues

extension TestDevice {
    /// The app's own state (`device.state`'s `app`) as JSON, as a client reads it, for an app
    /// whose state type is not `Decodable`: `try device.appState()["challenge"]?["status"]`.
    public func appState() throws -> JSONValue {
        try appState(as: JSONValue.self)
    }
}
