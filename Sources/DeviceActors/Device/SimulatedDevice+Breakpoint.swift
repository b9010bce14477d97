import ExtensionSandbox
@_spi(Host) import SimulatediOS

extension SimulatedDevice {
    /// Whether tasks stopped at a breakpoint (a replay's `until`, ``ScenarioBreakpoint``) still
    /// stand where they stopped: the device's next event, intent or clock advance lets them go on.
    public var standsAtBreakpoint: Bool { world.scheduler.hasHeldTasks }

    /// Before an event, an intent or a clock advance: the tasks a breakpoint held go on first,
    /// under the device's FIFO schedule, until each ends or waits (on time, say); then the
    /// input runs. Nothing when none is held. A look (`device.state`, `store.get`, `trace`) and a
    /// write the user makes by hand (`store.set`, `activity.start`) run beside them instead, as a
    /// debugger reads and sets memory without resuming the threads it stopped.
    func goOnFromBreakpoint() throws(DeviceError) {
        guard world.scheduler.hasHeldTasks else { return }
        world.resumeHeldTasks()
        try run {}
    }
}
