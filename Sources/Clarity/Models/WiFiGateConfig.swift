import SimulatediOS

/// Seed 000, task 1d `WiFiGateConfig`. The seed's service keeps `homeNetworks` and `isEnabled`
/// in the App Group (`homeNetworkSSIDs`, `wifiGateEnabled`); `strictMode` lives here and is
/// mirrored to the App Group for the shield extensions (`wifiGateStrictMode`, project choice).
struct WiFiGateConfig: Codable, Sendable, Equatable {
    /// false = show override after 30s, true = no override.
    var strictMode = false
}
