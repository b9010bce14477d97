import ExtensionSandbox

/// What an app's main app process runs its actors on: one executor per actor, from the device's
/// runtime. An app's registration is given this, not the runtime itself (docs/sdk.md, "What an
/// app can reach"), so app code can make its actors but never step the device,
/// move its clock or cancel its timers: time comes from ``Platform/now`` and timers from
/// ``Platform/scheduleAppTimer(after:label:action:)``. Extensions get their executor from the
/// device (``SimulatedApp/makeMonitor(executor:)``).
public struct ProcessExecutors: Sendable {
    private let world: World

    /// The device hands its runtime to an app's registration wrapped in this (`DeviceWiring`).
    @_spi(Host) public init(world: World) {
        self.world = world
    }

    /// A fresh executor for one actor of the main app's process, `label` naming it in traces and
    /// failure reports (`dailylimit.app`). Never share one between actors: actors on one executor
    /// never interleave, so their races would never be explored.
    public func makeExecutor(label: String) -> WorldActorExecutor {
        world.makeExecutor(label: label)
    }
}
