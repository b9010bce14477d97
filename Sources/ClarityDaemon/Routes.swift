import ControlProtocol

extension Router {
    /// Every method clarityd answers, where it runs and who answers it, in one place
    /// (docs/protocol.md, Methods). The device methods are one line each in
    /// ``DeviceRoutes/table``, which a restart also replays journals through.
    init(
        daemon: DaemonMethods, subscriptions: SubscriptionMethods, scenarios: ScenarioMethods, devices: DeviceService,
        backends: BackendMethods
    ) {
        self.init()
        on(.daemonPing, .eventLoop, daemon.ping)
        on(.daemonStatus, .eventLoop, daemon.status)
        on(.daemonShutdown, .eventLoop, daemon.shutdown)
        on(.daemonCatalog, .eventLoop, daemon.catalog)
        on(.subscribe, .eventLoop, subscriptions.subscribe)
        on(.unsubscribe, .eventLoop, subscriptions.unsubscribe)
        on(.scenarioRun, .ownThread, scenarios.run)
        on(.scenarioReplay, .ownThread, scenarios.replay)
        on(.scenarioExplore, .ownThread, scenarios.explore)
        on(.scenarioCancel, .eventLoop, scenarios.cancel)
        on(.backendList, .eventLoop, backends.list)
        on(.backendNow, .eventLoop, backends.now)
        on(.backendUsers, .eventLoop, backends.users)
        on(.backendEvents, .ownThread, backends.events)
        on(.backendScores, .ownThread, backends.scores)
        on(.backendGroups, .eventLoop, backends.groups)
        on(.backendLeaderboard, .eventLoop, backends.leaderboard)
        on(.backendSync, .ownThread, backends.sync)
        for (method, route) in DeviceRoutes.table {
            on(method, route.runsOn, devices.handler(for: method, route))
        }
        precondition(methods == Set(Method.allCases.map(\.rawValue)), "every method of the protocol has a route")
    }
}
