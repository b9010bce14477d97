import SimulatediOS

/// The Phone's settings (`config.app`, or `config.backend` at the config's top level, its older
/// spelling): `backend`, the instance of its server the device talks to (docs/apps/thephone-backend.md,
/// "Instances"), `default` unless named; a name is 1 to 64 letters, digits, `.`, `_` and `-`,
/// not starting with `.` (it names the instance's files). Fixed when the device is created. What
/// else varies a device of The Phone is device config: `platform` (`ios`, `android`:
/// docs/apps/thephone.md, "The Android client") and `notificationPermission` (temptation pushes).
public struct ThePhoneSettings: AppConfiguration, Equatable {
    public var backend: String

    public static let members = ["backend"]
    /// `backend` with its default, as the device config's top level also takes it.
    public static let topLevelDefaults: [String: StoredValue] = ["backend": .string("default")]

    public init(backend: String = "default") {
        self.backend = backend
    }

    private enum CodingKeys: String, CodingKey {
        case backend
    }

    public init(from decoder: any Decoder) throws {
        backend = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .backend) ?? "default"
    }

    public func validate() throws(DeviceError) {
        guard ServerRegistration.isName(backend) else {
            throw .invalidArgument(field: "backend", reason: "1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
    }
}
