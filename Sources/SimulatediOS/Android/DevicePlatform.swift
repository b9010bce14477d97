/// Which operating system the simulated device runs (`device.create`'s `platform`): iOS by default;
/// `android` only as far as the apps' Android clients need (docs/platform.md, "Android"): a
/// manifest-registered receiver, coroutines, WorkManager and a Room table. What one
/// system does not have, the other refuses: ``PlatformUnavailable``.
public enum DevicePlatform: String, Sendable, Codable, CaseIterable, NamedChoice {
    case ios
    case android

    /// Throws ``PlatformUnavailable`` unless this is `platform`.
    func require(_ platform: DevicePlatform, _ feature: String) throws {
        guard self == platform else { throw PlatformUnavailable(feature: feature, platform: self) }
    }
}

/// An API of the other operating system was called (a BroadcastReceiver on iOS, a Shortcuts
/// automation on Android): code that could not even build for this device.
public struct PlatformUnavailable: Error, CustomStringConvertible {
    public let feature: String
    public let platform: DevicePlatform

    public var description: String { "\(feature) do not exist on \(platform.rawValue)" }
}
