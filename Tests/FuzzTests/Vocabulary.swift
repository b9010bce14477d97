/// The words the fuzzer builds requests from: docs/protocol.md, docs/apps/clarity.md and
/// `daemon.catalog`, plus values chosen to sit on or past an edge.
enum Vocabulary {
    static let methods = [
        "daemon.ping", "daemon.status", "daemon.catalog", "daemon.shutdown", "device.create", "device.list",
        "device.remove", "device.state", "device.config", "event", "clock.advance", "clock.now", "intent", "store.get",
        "store.set", "store.remove", "store.dump", "shields.get", "shield.config", "notifications.list", "sandbox.list",
        "activity.start", "activity.stop", "activity.list", "trace.get",
    ]
    /// Methods the contract names that this build does not serve, and names that are no method.
    static let unservedMethods = [
        "scenario.run", "scenario.explore", "nope", "Daemon.Ping", "device.create ",
        "", "device.", ".", "rpc.discover", "daemon.ping\u{0}",
    ]
    static let eventTypes = [
        "lock", "unlock", "device.reboot", "app.open", "app.close", "shield.press", "call.dial", "call.connect",
        "call.end", "wifi.join", "wifi.leave", "contacts.set", "storekit.purchase", "storekit.expire", "storekit.refund",
    ]
    static let unservedEventTypes = ["health.sample", "health.fail", "bogus", "", "Lock", "app.open "]
    static let intents = [
        "selectApps", "setImportantContacts", "setProsocial", "addHomeNetwork", "removeHomeNetwork", "setWiFiGate",
        "challenge.open", "challenge.skip", "focus.start", "focus.end", "restorePurchases", "logMood",
    ]
    static let unknownIntents = ["selectapps", "SelectApps", "", "bogus", "focus", "challenge.", "logMood\u{0}"]
    static let apps = ["clarity", "scrollkitty", "spendless", "makehay", "thephone", "Clarity", "", "bogus"]

    /// Devices any worker may create, remove and use: the create/remove races happen on these.
    static let sharedDevices = ["default", "race0", "race1", "race2", "_", String(repeating: "m", count: 64)]
    /// A valid name no one creates.
    static let ghostDevice = "ghost-9"
    /// Names the rules refuse (1–64 of `A–Z a–z 0–9 . _ -`, not starting with `.`).
    static let invalidDeviceNames = [
        "", ".hidden", ".", "..", "a/b", "../etc", "race0\n", "race0\r", "race0\u{2028}", "race0\u{85}",
        "race0\u{2029}", "race0\u{0}", String(repeating: "m", count: 65), String(repeating: "m", count: 64) + "\n",
        "é", "race 0", " race0", "race0 ", "😀", "a\tb", "\u{202E}0ecar", "race0\u{200B}", "ｒａｃｅ０", "race0/",
        "race0\r\n", "\n", "race0\u{7F}", "race0\\", "race0\"",
    ]

    static func isValidDeviceName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return (1...64).contains(bytes.count) && bytes[0] != UInt8(ascii: ".")
            && bytes.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    static let bundleIDs = [
        "com.burbn.instagram", "com.zhiliaoapp.musically", "com.atebits.Tweetie2", "com.facebook.Facebook",
        "com.reddit.Reddit", "com.toyopagroup.picaboo", "com.apple.MobileSMS", "com.apple.mobilephone",
        "com.apple.facetime", "com.apple.mobilesafari", "com.clarity.focus", "com.netflix.Netflix",
    ]
    static let oddBundleIDs = [
        "", "com.example.unknown", "COM.BURBN.INSTAGRAM", "com.burbn.instagram\u{0}", "🙂.app", "com.burbn.instagram ",
        String(repeating: "x", count: 500),
    ]
    static let categories = ["communication", "social", "entertainment", "shopping", "productivity", "utilities", "other"]
    static let oddCategories = ["all", "Social", "", "bogus", "social\n"]
    static let products = ["com.clarity.focus.monthly", "com.clarity.focus.yearly"]
    static let oddProducts = ["com.clarity.focus.lifetime", "", "com.clarity.focus.monthly "]
    static let ssids = ["Home", "Cabin", "Office", "Café ☕", "Home2"]
    static let oddSSIDs = ["", "Home\n", String(repeating: "w", count: 300), "\u{0}", "home"]
    static let phones = ["+15550100", "+15550101", "555-0102", "+4930123456", "+977 1 4000000"]
    static let oddPhones = ["", "tel:+1555", "+", String(repeating: "9", count: 100), "☎"]
    static let contactNames = ["Mom", "Sam", "Zoë", "李雷", "O'Brien", "Dr. \"Who\"", "Ana María"]
    static let oddContactNames = ["", "\u{202E}evil", "A\nB", "\u{0}", String(repeating: "n", count: 1000), "👩‍👩‍👧‍👦"]
    static let contactIDs = ["1", "2", "3", "mom", "sam", "manual-1", "x"]

    static let timezones = [
        "UTC", "Europe/Berlin", "Pacific/Chatham", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe",
        "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tehran", "America/Caracas", "Antarctica/Troll",
        "Europe/Dublin", "Africa/Casablanca", "America/Sao_Paulo", "Pacific/Apia",
    ]
    static let oddTimezones = ["Bogus/Zone", "", "GMT+14", "+05:45", "utc", "Etc/GMT-14", "EST", "Europe/Berlin\n"]

    /// Starts a device may well be given.
    static let starts = [
        "2026-01-05T09:00:00Z", "2026-01-05T09:00:00.001Z", "2026-01-05T09:00:00.999Z", "2026-01-05T09:00:00.123456789Z",
        "2026-03-08T01:59:59.999Z", "2026-03-29T01:30:00Z", "2026-10-25T00:59:59Z", "2026-12-31T23:59:59.5Z",
        "2028-02-29T12:00:00Z", "1970-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2038-01-19T03:14:08Z",
        "2099-12-31T23:00:00Z",
    ]
    static let oddStarts = [
        "1969-12-31T23:59:59.999Z", "1900-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
        "2262-04-11T23:47:16Z", "2026-02-30T00:00:00Z", "2026-01-05T09:00:00+05:45", "2026-01-05T09:00:00-03:30",
        "2026-01-05", "2026-01-05T25:00:00Z", "", "now", "2026-01-05T09:00:00.Z", "+275760-09-13T00:00:00Z",
        "2026-01-05T09:00:00.0000000000000000001Z", "2026-01-05 09:00:00Z", "2026-01-05T09:00:60Z",
    ]

    static let appGroupSuite = "group.com.clarity.focus"
    /// Keys only the fuzzer writes: their values are tracked across restarts.
    static let trackedKeys = ["fz.k0", "fz.k1", "fz.k2", "fz.k3", "fz.k4", "fz.k5"]
    /// Suites the tracked keys live in: the App Group and one of the fuzzer's own.
    static let trackedSuites = [appGroupSuite, "fz.suite"]
    /// Keys Clarity reads and writes (docs/apps/clarity.md).
    static let appKeys = [
        "shieldedAppsSelection", "pendingProsocialChallengeId", "prosocialChallengeVerified", "homeNetworkSSIDs",
        "wifiGateEnabled", "prosocialContactName", "frictionLevel", "prosocialEnabled", "isSubscribed",
        "wifiGateStrictMode", "wifiGateOverride", "wifiGateAppliedAt",
    ]
    static let oddKeys = ["", "k", "a.b", "é", "key\n", "\u{0}", String(repeating: "k", count: 300), "$data", "$json"]
    static let oddSuites = ["", "group.other", "é", "group.com.clarity.focus ", "\u{0}"]

    static let activityNames = ["a", "evening", "night", "study", "clarity_friction", "prosocial_text_verification"]
    static let oddActivityNames = ["", "é", "n\n", String(repeating: "a", count: 200), "\u{0}"]
    static let quirks = ["thresholdFiresOnStart", "batchedThresholds", "lateDefaultsPropagation", "emptyDefaultsBeforeFirstUnlock"]

    /// Numbers on or past an edge: zero and -1, the ends of `Int`, 2^53 and 2^62, beyond `Int`,
    /// the ends of `Double`, fractions, `-0`; some written as strings.
    static let edgeNumbers: [FuzzValue] = [
        .int(0), .int(-1), .int(1), .int(Int.min), .int(Int.max), .int(1 << 53), .int((1 << 53) + 1), .int(1 << 62),
        .int(Int(Int32.max)), .int(Int(UInt32.max)), .number("9223372036854775808"), .number("-9223372036854775809"),
        .number("18446744073709551616"), .number("1e19"), .number("1e308"), .number("-1e308"), .number("1e400"),
        .number("0.5"), .number("1.000001"), .number("-0.0"), .number("-0"), .number("4.9e-324"), .number("1E3"),
        .number("0.1e1"), .number("2.5e-3"), .number("100000000000000000000000"), .number("1.5e300"), .number("59.999"),
        .string("NaN"), .string("Infinity"), .string("-Infinity"), .string("1e19"), .string("1"), .string(""),
        .bool(true), .null, .array([]), .object([]),
    ]
    /// Strings with characters that are easy to get wrong.
    static let oddStrings = [
        "é", "e\u{301}", "ß", "İ", "🇩🇪", "👨‍👩‍👧", "\u{0}", "\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}",
        "\u{200B}", "\u{FEFF}", "\u{202E}", "\u{FFFD}", "\u{10FFFF}", "\"", "\\", "/", "\n", "\r", "\t", "<b>",
        "%s%n", "'; --", "null", "true", "{}", "\u{1F4A9}\u{1F4A9}",
    ]
    /// String bodies written raw: lone and reversed surrogates, escaped NUL, noncharacters.
    static let rawStringBodies: [String] = [
        "\\ud800", "\\udc00\\ud800", "\\u0000", "\\uFFFF", "\\ud83d\\ude00", "\\u00e9", "\\/", "\\b\\f", "\\uDBFF\\uDFFF",
    ]
}
