// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: FoqosShieldConfig/ShieldConfigurationExtension.swift (the soft-unblock shields, and
// the shield of a website through its category, which the SDK lacks, are not ported: see
// docs/porting-foqos.md). Colours, blur style and icon are names here, not UIKit values.

import Foundation
import SimulatediOS

// Override the functions below to customize the shields used in various situations.
// The system provides a default appearance for any methods that your subclass doesn't override.
// Make sure that your class name matches the NSExtensionPrincipalClass in your Info.plist.
actor ShieldConfigurationExtension: WorldActor, ShieldConfigurationDataSource {
  nonisolated let executor: WorldActorExecutor
  private let platform: Platform

  init(executor: WorldActorExecutor, platform: Platform) {
    self.executor = executor
    self.platform = platform
  }

  func configuration(shielding application: Application) async throws -> ShieldConfiguration {
    return createCustomShieldConfiguration(
      for: .app, title: application.localizedDisplayName ?? "App")
  }

  func configuration(shielding application: Application, in category: ActivityCategory) async throws
    -> ShieldConfiguration
  {
    return createCustomShieldConfiguration(
      for: .app, title: application.localizedDisplayName ?? "App")
  }

  func configuration(shielding webDomain: WebDomain) async throws -> ShieldConfiguration {
    return createCustomShieldConfiguration(for: .website, title: webDomain.domain ?? "Website")
  }

  private func createCustomShieldConfiguration(for type: BlockedContentType, title: String)
    -> ShieldConfiguration
  {
    // The user's theme color: ThemeManager's default, Grimace Purple (its picker is not ported)
    let brandColor = "#894fa3"

    // Get random fun message
    let randomMessage = getFunBlockMessage(for: type, title: title)

    // Emoji “icon” (by name: the SDK's ShieldConfiguration.icon is a name, not an image)
    let emojiIcon = randomMessage.emoji

    return ShieldConfiguration(
      backgroundBlurStyle: "dark",
      backgroundColor: brandColor,
      icon: emojiIcon,
      title: ShieldConfiguration.Label(
        text: randomMessage.title,
        color: "white"
      ),
      subtitle: ShieldConfiguration.Label(
        text: randomMessage.subtitle,
        color: "#ffffffe0"
      ),
      primaryButtonLabel: ShieldConfiguration.Label(
        text: randomMessage.buttonText,
        color: "black"
      ),
      primaryButtonBackgroundColor: "white",
      secondaryButtonLabel: nil
    )
  }

  private func getFunBlockMessage(for _: BlockedContentType, title: String) -> (
    emoji: String, title: String, subtitle: String, buttonText: String
  ) {
    typealias FunMessage = (emoji: String, title: String, subtitle: String, buttonText: String)

    // Curated message "bundles" where the emoji and copy are designed to match.
    // This keeps things fun without feeling chaotic or mismatched.
    let messages: [FunMessage] = [
      ("📵", "Not right now", "\(title) can wait. You’re choosing your time on purpose.", "Back"),
      ("🧠", "Brain check", "Do you actually want \(title)… or was it autopilot?", "Return"),
      (
        "🎯", "Stay on target", "One small step toward your goal first. Then decide on \(title).",
        "Continue"
      ),
      (
        "⏳", "Give it 2 minutes", "Finish the next tiny thing. \(title) will still be there after.",
        "Keep going"
      ),
      ("🛡️", "Shield up", "Focus is protected. You’ve got this.", "Onward"),
      ("🔒", "Locked in", "This block is temporary. Your momentum isn’t.", "Stay here"),
      ("🧱", "Boundary set", "You made a plan. This is you sticking to it.", "Back"),
      ("✨", "Glow mode", "You’re building attention — that’s the real flex.", "Nice"),
      ("🫶", "Be kind to you", "No shame. Just a gentle nudge back to what matters.", "Got it"),
      (
        "🌐", "Not this detour", "\(title) isn’t part of the mission right now.", "Return"
      ),
      (
        "🕸️", "Avoid the trap", "One click turns into twenty. Let’s not.", "Back"
      ),
      ("🛡️", "Protected zone", "We’re keeping your attention where you wanted it.", "Got it"),
      ("🔒", "Locked in", "This is a temporary block for a long-term win.", "Return"),
      (
        "🎯", "Back to the task", "Close the detour. Finish the task. Then come back on purpose.",
        "Back to work"
      ),
      (
        "⏳", "Protect the time", "A few minutes can become an hour. Keep your momentum.",
        "Stay focused"
      ),
      ("📵", "Not missing anything", "You’re not missing anything important right now.", "Back"),
      ("✨", "Momentum mode", "Tiny choices like this add up fast.", "Continue"),
    ]
    guard !messages.isEmpty else { return ("🧠", "Quick pause", "Not right now.", "Back") }

    let comps = platform.calendar.calendar.dateComponents([.year, .month, .day], from: platform.currentDate)
    let dayKey =
      (comps.year ?? 0) * 10_000
      + (comps.month ?? 0) * 100
      + (comps.day ?? 0)

    let seed = Int(stableSeed(for: title) % UInt64(Int.max)) ^ dayKey
    let idx = abs(seed) % messages.count

    return messages[idx]
  }

  private func stableSeed(for title: String) -> UInt64 {
    // FNV-1a 64-bit over unicode scalars (deterministic across runs/devices).
    var hash: UInt64 = 14_695_981_039_346_656_037
    for scalar in title.unicodeScalars {
      hash ^= UInt64(scalar.value)
      hash &*= 1_099_511_628_211
    }
    return hash
  }
}
