import SimulatediOS

/// The WiFi gate (seed 000 task 2d `WiFiGateService`): the selection is shielded through the
/// `wifiGate` store everywhere except on a home network. Checked when the network changes and
/// every 30 seconds while the gate is on (the seed polls always; a check of a gate that is off
/// can only clear an empty store, so the simulation skips those). With `strictMode` off, the shield's continue button overrides the gate once
/// it has shown for 30 s (until the network changes); with it on, there is no override.
extension ClarityMainApp {
    static let wifiCheckInterval = 30.0

    var homeNetworks: [String] {
        get async throws {
            guard case .array(let items)? = try await sharedDefaults.object(forKey: ClarityKeys.homeNetworkSSIDs) else {
                return []
            }
            return items.compactMap(\.stringValue)
        }
    }

    /// `isEnabled`: `sharedDefaults.bool(forKey: "wifiGateEnabled")` — false until set.
    var wifiGateEnabled: Bool {
        get async throws { try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateEnabled) }
    }

    /// `startMonitoring`: check now, then every 30 seconds.
    func startWiFiMonitoring() async throws {
        try await evaluateGate()
    }

    /// Polls every 30 s while the gate is on and entitled; stops otherwise.
    private func updateWiFiPolling(gateOn: Bool) {
        if gateOn {
            guard timers["wifiCheck"] == nil else { return }
            setTimer("wifiCheck", after: Self.wifiCheckInterval) { [self] in
                await self.cancelTimer("wifiCheck")
                try await self.evaluateGate()
            }
        } else {
            cancelTimer("wifiCheck")
        }
    }

    /// `addHomeNetwork` (max 3, no duplicates).
    func addHomeNetwork(_ ssid: String) async throws -> [String] {
        var networks = try await homeNetworks
        guard !networks.contains(ssid) else {
            throw DeviceError.refused(reason: "duplicateNetwork", message: "\(ssid) is already a home network")
        }
        guard networks.count < ProsocialLimits.maxTrustedNetworks else {
            throw DeviceError.refused(
                reason: "tooManyNetworks", message: "at most \(ProsocialLimits.maxTrustedNetworks) home networks")
        }
        networks.append(ssid)
        try await sharedDefaults.set(.array(networks.map(StoredValue.string)), forKey: ClarityKeys.homeNetworkSSIDs)
        try await evaluateGate()
        return networks
    }

    /// `removeHomeNetwork`.
    func removeHomeNetwork(_ ssid: String) async throws -> [String] {
        let networks = try await homeNetworks.filter { $0 != ssid }
        try await sharedDefaults.set(.array(networks.map(StoredValue.string)), forKey: ClarityKeys.homeNetworkSSIDs)
        try await evaluateGate()
        return networks
    }

    /// `setWiFiGate`: enabled (a paid feature) and strict mode.
    func setWiFiGate(enabled: Bool?, strictMode: Bool?) async throws {
        if enabled == true { try requireEntitlement("the WiFi gate") }
        if let strictMode {
            store.wifiGate.strictMode = strictMode
            changed()
            try await sharedDefaults.set(.bool(strictMode), forKey: ClarityKeys.wifiGateStrictMode)
        }
        if let enabled {
            try await sharedDefaults.set(.bool(enabled), forKey: ClarityKeys.wifiGateEnabled)
        }
        try await evaluateGate()
    }

    func networkChanged(ssid: String?) async throws {
        if try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateOverride) {
            try await sharedDefaults.removeObject(forKey: ClarityKeys.wifiGateOverride)
        }
        try await evaluateGate()
    }

    /// `evaluateGate`: shield apps when NOT on home WiFi, unshield when on home WiFi.
    func evaluateGate() async throws {
        let wifiStore = platform.managedSettingsStore(named: ClarityKeys.wifiGateStore)
        let ssid = try await platform.systemServices.currentSSID()
        let networks = try await homeNetworks
        let onHomeNetwork = ssid.map(networks.contains) ?? false
        let gateOn = try await wifiGateEnabled && isEntitled
        updateWiFiPolling(gateOn: gateOn)
        guard gateOn, !onHomeNetwork,
            !(try await sharedDefaults.bool(forKey: ClarityKeys.wifiGateOverride))
        else {
            // WiFi gate disabled, on home WiFi, or overridden — remove all WiFi shields
            if try await !wifiStore.shield().isEmpty { try await wifiStore.clearAllSettings() }
            return
        }
        try await applyWiFiShields(wifiStore)
    }

    /// `applyWiFiShields`: the user's shielded app selection, from the App Group.
    private func applyWiFiShields(_ wifiStore: ManagedSettingsStore) async throws {
        guard
            let selection = FamilyActivitySelectionData.decode(
                try await sharedDefaults.data(forKey: ClarityKeys.shieldedAppsSelection))
        else { return }
        let wasEmpty = try await wifiStore.shield().isEmpty
        try await wifiStore.setShield(
            applications: Set(selection.applicationTokens),
            categories: selection.categoryTokens.isEmpty ? .none : .specific(Set(selection.categoryTokens), except: []))
        if wasEmpty {
            try await sharedDefaults.set(.double(now), forKey: ClarityKeys.wifiGateAppliedAt)
        }
    }
}
