import ControlProtocol

/// `clarityctl device create NAME`: a new simulated device running one app bundle. Without
/// `--app` no `app` is sent, so the daemon's `defaultApp` applies. Its help lists the apps as the
/// running daemon's `daemon.catalog` gives them, so an app registered in the catalog appears there
/// without a change here.
struct DeviceCreate: RequestCommand {
    static let help = CommandHelp(
        words: ["device", "create"],
        synopsis: "NAME [--app APP] [--clock virtual|wall] [--start ISO] [--timezone TZ] [--seed N] [--config JSON]",
        abstract: "create a device (device.create)",
        details: [
            "  --app APP         one of the daemon's apps (below); default: its defaultApp",
            "  --clock MODE      virtual (default: the daemon's) or wall",
            "  --start ISO       the virtual clock's start, e.g. 2026-01-05T09:00:00Z",
            "  --timezone TZ     e.g. Europe/Berlin",
            "  --seed N          the device's random seed",
            "  --config JSON     per-device overrides, e.g. '{\"memoryBudgets\":{\"monitor\":6291456}}'",
        ])

    let params: JSONValue?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        var members: [String: JSONValue] = [:]
        if let app = try arguments.value(of: "--app") { members["app"] = .string(app) }
        if let clock = try arguments.value(of: "--clock") {
            members["clock"] = .string(try ArgumentValues.choice(clock, for: "--clock", among: ["virtual", "wall"]))
        }
        if let start = try arguments.value(of: "--start") { members["start"] = .string(start) }
        if let timezone = try arguments.value(of: "--timezone") { members["timezone"] = .string(timezone) }
        if let seed = try arguments.value(of: "--seed") {
            members["seed"] = .int(try ArgumentValues.integer(seed, for: "--seed"))
        }
        if let config = try arguments.value(of: "--config") {
            members["config"] = .object(try ArgumentValues.jsonObject(config, for: "--config"))
        }
        members["device"] = .string(try arguments.positional("NAME"))
        params = .object(members)
    }

    var method: Method { .deviceCreate }

    static func helpPage(in session: Session) -> CommandHelp {
        var page = help
        page.details += [""] + appLines(DaemonCatalog.fetch(in: session))
        return page
    }

    /// The apps a device can run and those that are coming, from the catalog; or one line saying
    /// why they cannot be listed.
    static func appLines(_ catalog: Result<DaemonCatalog, any Error>) -> [String] {
        switch catalog {
        case .failure(let error as RPCError):
            return ["(clarityd did not list its apps: \(error.message))"]
        case .failure(ClientError.timedOut(let seconds)):
            return ["(clarityd did not answer within \(PlainText.scalar(.double(seconds))) s to list its apps)"]
        case .failure:
            return ["(start clarityd to list its apps)"]
        case .success(let catalog):
            let available = catalog.apps.filter(\.available).map(\.name)
            let coming = catalog.apps.filter { !$0.available }.map(\.name)
            return HelpText.wrapped(available, after: "APP (daemon.catalog): ")
                + (coming.isEmpty ? [] : HelpText.wrapped(coming, after: "coming: "))
        }
    }
}
