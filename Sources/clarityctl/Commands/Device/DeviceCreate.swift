import ControlProtocol

/// `clarityctl device create NAME`: a new simulated device running one app bundle. Without
/// `--app` no `app` is sent, so the daemon's `defaultApp` applies. Its help names the apps as the
/// running daemon's `daemon.catalog` gives them, so an app registered in the daemon's catalog
/// appears there without a change here; without a daemon to ask, it says "an app the daemon runs".
struct DeviceCreate: MethodCommand {
    static let help = CommandHelp(
        words: ["device", "create"],
        synopsis:
            "NAME [--app APP | --apps APP,APP...] [--platform ios|android] [--clock virtual|wall] [--start ISO] [--timezone TZ] [--seed N] [--backend NAME] [--config JSON]",
        abstract: "create a device (device.create)",
        details: [
            "  --app APP         an app the daemon runs (default: the daemon's defaultApp; listed here when clarityd answers)",
            "  --apps A,B        several apps on one device, the first the primary (intent then takes --app)",
            "  --clock MODE      virtual (default: the daemon's) or wall",
            "  --start ISO       the virtual clock's start, e.g. 2026-01-05T09:00:00Z",
            "  --timezone TZ     e.g. Europe/Berlin",
            "  --platform OS     ios (default) or android (for an app with an Android client)",
            "  --seed N          the device's random seed",
            "  --backend NAME    the instance of the app's server (default: default; config.backend)",
            "  --config JSON     per-device overrides, e.g. '{\"memoryBudgets\":{\"monitor\":6291456}}'",
            "Examples:",
            "  clarityctl device create lab                                  (the daemon's defaultApp)",
            "  clarityctl device create shop --app APP --config '{\"notificationPermission\":\"deny\"}'",
            "  clarityctl device create bob --app APP --platform android --timezone Asia/Tokyo",
            "  clarityctl device create both --apps APP,OTHER                (APP the primary)",
        ])

    let params: JSONValue?
    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let app = try arguments.value(of: "--app") { members["app"] = .string(app) }
        if let apps = try arguments.value(of: "--apps") {
            if members["app"] != nil { throw UsageError("--app and --apps cannot be combined") }
            let names = apps.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if names.contains(where: \.isEmpty) { throw UsageError("--apps \(apps): app names separated by commas") }
            members["apps"] = .array(names.map(JSONValue.string))
        }
        if let clock = try arguments.value(of: "--clock") {
            members["clock"] = .string(try ArgumentValues.choice(clock, for: "--clock", among: ["virtual", "wall"]))
        }
        if let start = try arguments.value(of: "--start") { members["start"] = .string(start) }
        if let timezone = try arguments.value(of: "--timezone") { members["timezone"] = .string(timezone) }
        if let seed = try arguments.value(of: "--seed") {
            members["seed"] = .int(try ArgumentValues.integer(seed, for: "--seed"))
        }
        if let platform = try arguments.value(of: "--platform") {
            members["platform"] = .string(try ArgumentValues.choice(platform, for: "--platform", among: ["ios", "android"]))
        }
        var config: [String: JSONValue] = [:]
        if let text = try arguments.value(of: "--config") { config = try ArgumentValues.jsonObject(text, for: "--config") }
        if let backend = try arguments.value(of: "--backend") { config["backend"] = .string(backend) }
        if !config.isEmpty { members["config"] = .object(config) }
        members["device"] = .string(try arguments.positional("NAME"))
        params = .object(members)
    }

    var method: Method { .deviceCreate }

    static func helpPage(in session: Session) -> CommandHelp {
        var page = help
        if let catalog = try? DaemonCatalog.fetch(in: session).get(), catalog.apps.contains(where: \.available) {
            page.details[0] = appLine(
                available: catalog.apps.filter(\.available).map(\.name),
                coming: catalog.apps.filter { !$0.available }.map(\.name))
        }
        return page
    }

    /// `--app APP  focus, dailylimit (default: …); timer is coming`.
    static func appLine(available: [String], coming: [String]) -> String {
        "  --app APP         " + available.joined(separator: ", ") + " (default: the daemon's defaultApp)"
            + (coming.isEmpty ? "" : "; " + coming.joined(separator: ", ") + (coming.count == 1 ? " is coming" : " are coming"))
    }
}
