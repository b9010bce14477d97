import SimulatediOS

/// ScrollKitty's settings (`config.app` of a device): none yet. This is the correct port; the
/// seed's mistakes (`variant`) and `hpDailyReset` (APPS.md 1.5, 1.3) are later tasks, so any
/// member is refused by name.
public struct ScrollKittySettings: AppConfiguration, Equatable {
    public static let members: [String] = []

    public init() {}

    public init(from decoder: any Decoder) throws {}
}
