import SimulatediOS

/// SpendLess's settings (`config.app` of a device). `variant` is every app's setting
/// (docs/protocol.md, "Per-device config"); no seed 002 mistake is switched on yet, so `correct`
/// (the default) is its only value and any other is refused as `config.app.variant`.
public struct SpendLessSettings: AppConfiguration, Equatable {
    public static let members = ["variant"]
    /// The variants this build has: only the correct port.
    public static let variants = ["correct"]
    /// The port as written (`correct`) when absent.
    public var variant: String?

    public init(variant: String? = nil) {
        self.variant = variant
    }

    public func validate() throws(DeviceError) {
        guard let variant, !Self.variants.contains(variant) else { return }
        throw .invalidArgument(field: "variant", reason: "one of \(Self.variants.joined(separator: ", "))")
    }
}
