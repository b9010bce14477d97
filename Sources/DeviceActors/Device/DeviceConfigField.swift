@_spi(Host) import SimulatediOS

/// One field of ``DeviceConfig``, a row of ``DeviceConfig/fields``: how an override (a request's
/// or clarityd.json's) merges into it, what it must hold, and whether `device.config` may change
/// it on a running device. A new field of the config is its property, its override and one row.
struct DeviceConfigField: Sendable {
    /// Whether `device.config` may change the field on a running device.
    enum Change: Sendable {
        /// `device.config` changes it (taken at once, or where the field says).
        case live
        /// Built into the device when it is made: `device.config` refuses a change, naming the
        /// field as the request spelt it.
        case fixedAtCreation
    }

    /// Its key in the config's JSON, in ``DeviceConfig/Overrides`` and in errors.
    let name: String
    let change: Change
    /// Sets the field from the overrides that give it; throws when a given value is refused as
    /// it stands (named relative to the config: `quirks.x`).
    let merge: @Sendable (inout DeviceConfig, DeviceConfig.Overrides) throws(DeviceError) -> Void
    /// Checks the field once every override is merged (a range); the merges all run first.
    let check: @Sendable (DeviceConfig) throws(DeviceError) -> Void
    /// Whether two configs hold different values in the field.
    let differs: @Sendable (DeviceConfig, DeviceConfig) -> Bool
    /// The field as `overrides` spelt it, for a refusal of a change from the first config to the
    /// second (`app.backend` for `backend`; a top-level setting by its own name).
    let spelling: @Sendable (DeviceConfig.Overrides, DeviceConfig, DeviceConfig) -> String

    init<Value: Equatable & Sendable>(
        _ name: String, _ field: KeyPath<DeviceConfig, Value> & Sendable, _ change: Change = .live,
        spelling: (@Sendable (DeviceConfig.Overrides, DeviceConfig, DeviceConfig) -> String)? = nil,
        check: @escaping @Sendable (DeviceConfig) throws(DeviceError) -> Void = { _ in },
        merge: @escaping @Sendable (inout DeviceConfig, DeviceConfig.Overrides) throws(DeviceError) -> Void
    ) {
        self.name = name
        self.change = change
        self.merge = merge
        self.check = check
        differs = { $0[keyPath: field] != $1[keyPath: field] }
        self.spelling = spelling ?? { _, _, _ in name }
    }

    /// A field an override replaces as a whole.
    static func replaced<Value: Equatable & Sendable>(
        _ name: String, _ field: WritableKeyPath<DeviceConfig, Value> & Sendable,
        by override: KeyPath<DeviceConfig.Overrides, Value?> & Sendable, _ change: Change = .live
    ) -> DeviceConfigField {
        DeviceConfigField(name, field, change) { config, overrides in
            if let value = overrides[keyPath: override] { config[keyPath: field] = value }
        }
    }

    /// A count (seconds, bytes) an override replaces, refused with `reason` outside `range`.
    static func replaced(
        _ name: String, _ field: WritableKeyPath<DeviceConfig, Int> & Sendable,
        by override: KeyPath<DeviceConfig.Overrides, Int?> & Sendable, within range: ClosedRange<Int>, reason: String
    ) -> DeviceConfigField {
        DeviceConfigField(
            name, field,
            check: { config throws(DeviceError) in
                guard range.contains(config[keyPath: field]) else { throw .invalidArgument(field: name, reason: reason) }
            }
        ) { config, overrides in
            if let value = overrides[keyPath: override] { config[keyPath: field] = value }
        }
    }
}
