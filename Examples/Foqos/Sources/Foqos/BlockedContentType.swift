// Ported from Foqos, https://github.com/awaseem/foqos (commit f02cf4e4).
// Copyright (c) 2024 Ali Waseem. MIT License: the full notice is in LICENSE-Foqos beside Package.swift.
// Ported onto clarityd's simulated iOS; every changed line is listed in docs/porting-foqos.md.
// Original: BlockedContentType in FoqosShieldConfig/ShieldConfigurationExtension.swift.

enum BlockedContentType {
  case app
  case website
}
