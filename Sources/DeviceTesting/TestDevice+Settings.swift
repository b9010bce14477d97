import DeviceActors
import SimulatediOS

extension TestDevice {
    /// A device running `app` with the app's own settings (`config.app`, as
    /// `device.create` takes them; decoded strictly by the app's configuration type), so a test
    /// needs no ``DeviceConfig``:
    /// `TestDevice(app: .clarity, settings: ["frictionThresholdsMinutes": .array([1, 2, 3, 4, 5])])`.
    public convenience init(
        app: AppRegistration, settings: [String: StoredValue], start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC",
        seed: UInt64 = 1, exhaustivity: Exhaustivity = .observable
    ) throws {
        var config = DeviceConfig()
        config.app = settings
        try self.init(app: app, start: start, timeZone: timeZone, seed: seed, config: config, exhaustivity: exhaustivity)
    }
}
