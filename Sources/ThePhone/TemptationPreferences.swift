/// What the user last set for temptations on this device (`setTemptations`; `temptations` in
/// docs/apps/thephone.md#devicestateapp): the settings row the app wrote on the server
/// (`PUT /temptations/settings`). Intensity `off` is the row with `enabled` false.
struct TemptationPreferences: Codable, Sendable, Equatable {
    /// Quiet hours, `HH:MM` each (seed: `quiet_start TIME -- e.g., 22:00`, `quiet_end … 07:00`);
    /// `start > end` wraps midnight.
    struct QuietHours: Codable, Sendable, Equatable {
        let start: String
        let end: String
    }

    let enabled: Bool
    /// `off`, `low`, `medium` or `high`, as the user chose it.
    let intensity: String
    let quietHours: QuietHours?

    private enum CodingKeys: String, CodingKey { case enabled, intensity, quietHours }

    init(enabled: Bool, intensity: String, quietHours: QuietHours?) {
        self.enabled = enabled
        self.intensity = intensity
        self.quietHours = quietHours
    }

    /// `quietHours` is always present: null when none.
    func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(enabled, forKey: .enabled)
        try values.encode(intensity, forKey: .intensity)
        try values.encode(quietHours, forKey: .quietHours)
    }
}
