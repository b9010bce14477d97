import SimulatediOS

/// ScrollKitty's settings (`config.app` of a device, read at `device.create`). `variant` switches
/// on one of the seed's likely mistakes (docs/apps/scrollkitty.md, "Variants"); the default is the
/// correct port. `hpDailyReset` (project choice, docs/apps/scrollkitty.md, "Settings") gives the
/// cat its HP back every local midnight.
public struct ScrollKittySettings: AppConfiguration, Equatable {
    /// The port as written (`correct`), or one of the seed's mistakes (seed 004, "Critical Issues").
    public enum Variant: String, Sendable, NamedChoice {
        case correct
        /// The re-shield timer kept in ShieldAction (seed 004: "Unblocks App -> Sets Timer"): it
        /// dies with the extension, so the shield never returns (Critical Issue 2).
        case extensionTimer
        /// The main app never calls `requestAuthorization`: no `Lost 10 HP` and no `Shield
        /// Returning` is ever shown (Critical Issue 3, "missing Notification permissions").
        case noNotificationAuth
        /// ShieldAction monitors the cooldown as an interval starting now, and the monitor, as it
        /// does for the focus window, shields every selected app when an interval starts: the
        /// shield comes back at once after `Continue` (Critical Issue 1, "the
        /// `DeviceActivityMonitor` is aggressively re-applying it").
        case monitorReapplies
        /// HP kept where the seed keeps it, in `appHealthData`, read, changed and written back by
        /// ShieldAction with platform calls between, guarded by nothing that spans processes or
        /// holds across `await` (the seed's "Swift Actors for thread-safe cross-extension
        /// communication"): concurrent bypasses and a concurrent `selectApps` lose updates
        /// (Critical Issue 4; docs/apps/scrollkitty.md, "HP atomicity").
        case readModifyWrite
    }

    public static let members = ["variant", "hpDailyReset"]
    public var variant = Variant.correct
    /// HP back to the split, and the cat alive again, at local 00:00 (default false: the seed
    /// names no reset, so HP and death persist).
    public var hpDailyReset = false

    public init(variant: Variant = .correct, hpDailyReset: Bool = false) {
        self.variant = variant
        self.hpDailyReset = hpDailyReset
    }

    private enum Member: String, CodingKey { case variant, hpDailyReset }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self)
        hpDailyReset = try members.decodeIfPresent(Bool.self, forKey: .hpDailyReset) ?? false
        variant = try members.decodeIfPresent(Variant.self, forKey: .variant) ?? .correct
    }
}
