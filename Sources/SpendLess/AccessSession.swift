import SimulatediOS

/// Seed 002's temporary access (`ShieldSessionManager`): one app unshielded for 10 minutes after
/// an intervention finished `access`. Stored in the App Group under `accessSession` as
/// `{"app", "endsAt"}`, `endsAt` as virtual `t` on a whole second (DeviceActivity wakes the
/// monitor there).
struct AccessSession: Sendable, Equatable {
    let app: String
    let endsAt: Double

    var storedValue: StoredValue { .dictionary(["app": .string(app), "endsAt": .double(endsAt)]) }

    init(app: String, endsAt: Double) {
        self.app = app
        self.endsAt = endsAt
    }

    init?(_ value: StoredValue?) {
        guard case .dictionary(let fields)? = value, let app = fields["app"]?.stringValue,
            let endsAt = fields["endsAt"]?.doubleValue
        else { return nil }
        self.init(app: app, endsAt: endsAt)
    }
}
