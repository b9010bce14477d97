import SimulatediOS

/// The Phone's backend as a server its app registers (docs/apps/thephone-backend.md, "Hosted in
/// the daemon"): the seed's routes answer the app's requests, its jobs run as the clock passes,
/// and a temptation becomes a push to every device of its user.
extension PhoneBackend: AppServer {
    public init(instance: String, now: Int64) {
        self.init(name: instance, now: now)
    }

    public mutating func advance(to now: Int64) -> ServerJobs {
        let jobs = advanceClock(to: now)
        var pushes: [ServerPush] = []
        for case .processTemptations(_, let sent) in jobs {
            for temptation in sent {
                let push = PushMessage(title: Self.pushTitle, body: temptation.body, category: temptation.kind.rawValue, sentAt: temptation.at)
                pushes += temptation.devices.map { ServerPush(device: $0, message: push) }
            }
        }
        return ServerJobs(pushes: pushes, changedSomething: jobs.contains(where: \.changedSomething))
    }

    public mutating func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest {
        PhoneBackendRoutes(caller).serve(request, on: &self)
    }

    public static var methods: [ServerMethod<PhoneBackend>] { PhoneBackendMethods.all }

    /// `backend.list`'s row: the backend's time, its users and groups.
    public var summary: Summary {
        Summary(now: Timestamps.iso(clock), users: allUsers.count, groups: allGroups.count)
    }

    public struct Summary: Encodable, Sendable {
        let now: String
        let users: Int
        let groups: Int
    }

    /// A temptation's title (a choice, docs/apps/thephone-backend.md, "Pushes"; the seed's push
    /// payload gives only a body).
    static let pushTitle = "The Phone"
}

extension ServerRegistration {
    /// The Phone's backend as its app brings it: `api.thephone.app`, answered at once (the seed
    /// states no latency, and the README's tour shows its answers as they were), ticked every 5
    /// minutes (its jobs' period), its methods also spelt `backend.*` and its instances kept in
    /// `<state dir>/backends/`, as before it was a registered server.
    public static let thePhoneBackend = ServerRegistration(
        PhoneBackend.self, name: "thephone", hosts: ["api.thephone.app"], latencyMilliseconds: 0...0, tickPeriodSeconds: 300,
        methodPrefix: "backend", stateDirectory: "backends")
}
