// Part of the Foqos port (docs/porting-foqos.md); not in the original.

/// FamilyControls' `FamilyActivitySelection`, as the port needs it: what the user picked in
/// `FamilyActivityPicker`. The simulated SDK's `ApplicationToken` is the app's bundle id and its
/// `ActivityCategoryToken` the category's name (docs/sdk.md), so the selection is three sets of
/// strings; it is `Codable` as Apple's is, and stored in the profile snapshot as the original does.
struct FamilyActivitySelection: Codable, Equatable {
  var applicationTokens: Set<String> = []
  var categoryTokens: Set<String> = []
  var webDomainTokens: Set<String> = []
}
