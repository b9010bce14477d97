import ControlProtocol
@_spi(Host) import SimulatediOS

extension Router {
    /// Every method clarityd answers, where it runs and who answers it, in one place
    /// (docs/protocol.md, Methods). The device methods are one line each in
    /// ``DeviceRoutes/table``, which a restart also replays journals through.
    init(
        daemon: DaemonMethods, subscriptions: SubscriptionMethods, scenarios: ScenarioMethods, devices: DeviceService,
        servers: ServerMethods
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
        on(.serverList, .eventLoop, servers.list)
        on(.serverCall, .ownThread, servers.call)
        // A server's own names for its methods: `<prefix>.list` and `<prefix>.<method>`.
        for server in servers.registrations {
            guard let prefix = server.methodPrefix else { continue }
            let list = servers.list(of: server, prefix: prefix)
            on(named: prefix + ".list", .eventLoop) { params, _ in MethodReply(result: try list(params)) }
            for method in server.kind.methods {
                let alias = servers.alias(of: server, prefix: prefix, method: method.name)
                on(named: prefix + "." + method.name, .ownThread) { params, _ in MethodReply(result: try alias(params)) }
            }
        }
        for (method, route) in DeviceRoutes.table {
            on(method, route.runsOn, devices.handler(for: method, route))
        }
        precondition(methods.isSuperset(of: Method.allCases.map(\.rawValue)), "every method of the protocol has a route")
    }
}
