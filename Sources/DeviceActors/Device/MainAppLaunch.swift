import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// One launch of an app's main app process, as the code running in it sees it: a task the app
/// started (`Task {}`) that calls the platform after the launch ended (`app.terminate`, a
/// reboot) is cut there, traced `task.cancelled` with reason `terminated`, as on iOS, where the
/// process and its tasks are gone together (docs/runtime.md, "Tasks simulated code starts").
final class MainAppLaunch: ProcessLaunch {
    private let life: MainAppLife
    private let number: Int
    private let trace: DeviceTrace
    private let actor: String

    init(of platform: Platform, actor: String, trace: DeviceTrace) {
        life = platform.mainApp
        number = platform.mainApp.current
        self.trace = trace
        self.actor = actor
    }

    func cutIfEnded(at operation: @autoclosure () -> VisibleOperation) throws {
        guard !life.isRunning(number) else { return }
        trace.record(.taskCancelled(at: operation().description, reason: "terminated"), by: actor)
        throw CancellationError()
    }
}
