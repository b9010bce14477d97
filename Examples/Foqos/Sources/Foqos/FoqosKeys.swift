// Part of the Foqos port (docs/porting-foqos.md); not in the original.

/// The names Foqos's targets share (from its entitlements and source).
public enum FoqosKeys {
  public static let bundleIdentifier = "dev.ambitionsoftware.foqos"
  public static let appGroup = "group.dev.ambitionsoftware.foqos"
  /// AppBlockerUtil's ManagedSettings store.
  public static let store = "foqosAppRestrictions"
}
