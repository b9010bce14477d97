extension ManagedSettingsStore {
    /// `ManagedSettingsStore.Name`: a store's name as iOS types it
    /// (`extension ManagedSettingsStore.Name { static let limit = Self("limit") }`).
    public struct Name: TypedName {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

extension Platform {
    /// `ManagedSettingsStore(named: .limit)` with iOS's typed name.
    public func managedSettingsStore(named name: ManagedSettingsStore.Name) -> ManagedSettingsStore {
        managedSettingsStore(named: name.rawValue)
    }
}
