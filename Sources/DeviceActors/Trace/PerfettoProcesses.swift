@_spi(Host) import SimulatediOS

/// The processes of an exported trace: which track (pid) each trace event is drawn on.
///
/// - The main app (`<app>.app`) is one process, and so is each system actor that appears
///   (`springBoard`, `deviceActivity`, `clock`, `outside`, `system`, any other actor).
/// - Each launch of an extension is a process of its own, as on iOS: `dailylimit.monitor #3` is
///   the third launch of the monitor in the exported events. An event of an extension belongs to
///   its latest launch (even after that launch ended: a straggler stays with it); events before
///   the first launch in the export go to a process `<actor> (launched earlier)`.
///
/// pids are numbered from 1 in order of first appearance, each process has one thread whose tid
/// is its pid. The sort order puts the main app first, then the system actors, then the
/// extension launches in the order they happened.
struct PerfettoProcesses {
    struct Process {
        let pid: Int
        let name: String
        let threadName: String
        let sortIndex: Int
    }

    private(set) var processes: [Process] = []
    /// The pid of each event, by its index in the trace.
    private(set) var pids: [Int] = []

    /// Where the system actors go, after the main app (0); other actors follow them.
    private static let systemOrder = ["springBoard", "deviceActivity", "clock", "outside", "system"]
    /// Sort indexes from here on are extension launches, in launch order.
    private static let firstLaunchIndex = 1000

    init(effects: [TracedEffect], mainAppActor: String) {
        var actors: [String: Int] = [:]
        var latestLaunch: [String: Int] = [:]
        var launches: [String: Int] = [:]
        var otherActors = 0
        for effect in effects {
            let entry = effect.entry
            let pid: Int
            if let sandbox = entry.sandbox {
                if case .extensionLaunch = entry.payload {
                    launches[entry.actor, default: 0] += 1
                    pid = add(
                        "\(entry.actor) #\(launches[entry.actor]!)", thread: sandbox,
                        sortIndex: Self.firstLaunchIndex + launches.values.reduce(0, +))
                    latestLaunch[entry.actor] = pid
                } else if let latest = latestLaunch[entry.actor] {
                    pid = latest
                } else {
                    pid = add("\(entry.actor) (launched earlier)", thread: sandbox, sortIndex: Self.firstLaunchIndex)
                    latestLaunch[entry.actor] = pid
                }
            } else if let known = actors[entry.actor] {
                pid = known
            } else {
                let sortIndex: Int
                if entry.actor == mainAppActor {
                    sortIndex = 0
                } else if let position = Self.systemOrder.firstIndex(of: entry.actor) {
                    sortIndex = 1 + position
                } else {
                    otherActors += 1
                    sortIndex = Self.systemOrder.count + otherActors
                }
                pid = add(entry.actor, thread: entry.actor == mainAppActor ? "main" : entry.actor, sortIndex: sortIndex)
                actors[entry.actor] = pid
            }
            pids.append(pid)
        }
    }

    private mutating func add(_ name: String, thread: String, sortIndex: Int) -> Int {
        let pid = processes.count + 1
        processes.append(Process(pid: pid, name: name, threadName: thread, sortIndex: sortIndex))
        return pid
    }
}
