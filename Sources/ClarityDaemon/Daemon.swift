import ControlProtocol
import DeviceActors
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon: reads its config, claims the socket, starts the devices, then serves clients
/// until `daemon.shutdown` or a termination signal.
///
/// Start-up order matters: the socket is claimed (private directory, lock, stale socket gone)
/// and the state directory locked before the devices load, and the socket only appears once they have, so a client that sees
/// it can use it. Exit status: 0 after a clean shutdown, 2 for a bad command line or config,
/// 1 for anything else that stops it starting.
final class Daemon: Sendable {
    private let log: Logger
    private let socketPath: String
    private let stateDirectory: URL
    /// Held while the daemon runs: two daemons on one state directory would overwrite each
    /// other's devices, whatever their sockets.
    private let stateLock: PidLockFile
    private let listener: Listener
    private let loops: EventLoops
    private let shutdown: Shutdown
    private let notifier: ServiceNotifier
    private let reload: ConfigReload

    /// Starts the daemon with the arguments after the program name, its devices running the apps
    /// of `catalog`: when this returns it is listening, and the caller parks the main thread
    /// (``Serving/park()``). A bad command line or config exits the process.
    ///
    /// Starting returns, rather than never returning itself, so that every value made while
    /// starting is released: a function that never returns drops its releases, and
    /// LeakSanitizer reported each such string at exit (docs/reliability.md).
    static func start(arguments: [String], environment: [String: String], catalog: AppCatalog) -> Serving {
        signal(SIGPIPE, SIG_IGN)
        // A file grown past RLIMIT_FSIZE must fail the write (EFBIG, answered -32006), not kill us.
        signal(SIGXFSZ, SIG_IGN)
        SystemCall.tuneAllocator()
        var file: ConfigFile
        var options = CommandLineOptions()
        do {
            switch try CommandLineOptions.parse(arguments) {
            case .help:
                print(CommandLineOptions.usage, terminator: "")
                exit(0)
            case .version:
                print("clarityd \(ClarityProtocol.version)")
                exit(0)
            case .run(let given):
                options = given
                file = try ConfigFile.load(explicitPath: options.configPath, catalog: catalog)
                file.apply(options, environment: environment)
            }
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("clarityd: \(error)\n".utf8))
            exit(error.exitStatus)
        }
        let log = Logger(level: file.config.logLevel)
        let daemon: Daemon
        do {
            daemon = try Daemon(file: file, options: options, environment: environment, catalog: catalog, log: log)
        } catch {
            log.error(error.message)
            exit(error.exitStatus)
        }
        return daemon.serve(lifeline: options.lifeline)
    }

    private init(
        file: ConfigFile, options: CommandLineOptions, environment: [String: String], catalog: AppCatalog, log: Logger
    )
        throws(StartupFailure)
    {
        if let conflict = ServerMethods.conflict(among: Array(catalog.registrations.values)) {
            throw .runtime("the apps' servers cannot run side by side: \(conflict)")
        }
        let config = file.config
        umask(0o077)
        self.log = log
        socketPath = config.socketPath(environment: environment)
        stateDirectory = config.stateDirectory(environment: environment)
        log.info("config: \(file.path ?? "built-in defaults")")
        var removeAtExit: String?
        if let directory = options.removeAtExit {
            removeAtExit = try Self.privateDirectory(directory, socket: socketPath, stateDirectory: stateDirectory)
        }
        let claim = try SocketClaim.acquire(path: socketPath, log: log)
        try PrivateDirectory.secure(stateDirectory.path, what: "state directory", log: log)
        try PrivateDirectory.secure(stateDirectory.appendingPathComponent("devices").path, what: "devices directory", log: log)
        do {
            stateLock = try PidLockFile.acquire(stateDirectory.appendingPathComponent("clarityd.lock").path)
        } catch {
            throw .runtime(
                error.message(using: "the state directory \(stateDirectory.path)")
                    + "; each daemon needs a --state-dir of its own")
        }
        let lanes = DeviceLanes()
        let descriptorLimit = DescriptorLimit.raise(log: log)
        let devices: DeviceService
        let store: DeviceStateStore
        let defaultApp = file.defaultApp(in: catalog)
        do {
            store = try DeviceStateStore(
                stateDirectory: stateDirectory, syncs: config.durability == .fsync,
                syncsWithin: config.durability == .everysec ? 1 : nil,
                openJournals: DescriptorLimit.journals(for: descriptorLimit), servers: catalog.servers, log: log)
            devices = try DeviceService(
                catalog: catalog, defaultApp: defaultApp, clockMode: config.clock, defaults: file.deviceDefaults, store: store,
                lanes: lanes,
                policy: CompactionPolicy(lines: config.compactJournalAfter, replaySteps: config.maxReplaySteps),
                maxRecordingBytes: config.maxRecordingBytes, log: log)
        } catch let error as RPCError {
            throw .runtime("the devices failed to start: \(error.message)")
        } catch {
            throw .runtime("the devices failed to start: \(error)")
        }
        notifier = ServiceNotifier(environment: environment, log: log)
        reload = ConfigReload(
            running: config, defaultApp: defaultApp, catalog: catalog, options: options, environment: environment, devices: devices,
            notifier: notifier, log: log)
        do {
            loops = try EventLoops(count: config.eventLoops, log: log)
        } catch {
            throw .runtime("cannot start the event loops: \(error)")
        }
        let acceptWakeup: AcceptWakeup
        do {
            acceptWakeup = try AcceptWakeup()
        } catch {
            throw .runtime("cannot start the listener: \(error)")
        }
        let connections = ConnectionRegistry(
            maxLineBytes: config.maxRequestBytes, loops: loops, lanes: lanes, acceptWakeup: acceptWakeup, log: log)
        let workers = ScenarioWorkers(threads: config.scenarioThreads, queueLimit: config.scenarioQueue)
        shutdown = Shutdown(
            claim: claim, devices: devices, scenarios: workers, connections: connections, notifier: notifier,
            removeAtExit: removeAtExit, log: log)
        let methods = DaemonMethods(
            socketPath: socketPath, stateDirectory: stateDirectory, devices: devices, connections: connections,
            scenarios: workers, journals: store.descriptors, descriptorLimit: descriptorLimit, shutdown: shutdown)

        let router = Router(
            daemon: methods, subscriptions: SubscriptionMethods(devices: devices), scenarios: ScenarioMethods(log: log, workers: workers, catalog: catalog, devices: devices),
            devices: devices, servers: ServerMethods(store: store.servers, devices: devices, registrations: catalog.servers))
        let dispatcher = RequestDispatcher(router: router, log: log, unsentAnswers: connections.outputBudget)
        listener = Listener(descriptor: try claim.bindAndListen(), wakeup: acceptWakeup, log: log) { descriptor, peer in
            connections.open(descriptor: descriptor, peer: peer, dispatcher: dispatcher)
        }
    }

    /// `--remove-at-exit`'s directory, which must hold both the socket and the state directory
    /// (so that it can only name a private daemon's own directory).
    private static func privateDirectory(_ directory: String, socket: String, stateDirectory: URL) throws(StartupFailure)
        -> String
    {
        let resolved = URL(fileURLWithPath: directory).standardizedFileURL.path
        let socketDirectory = URL(fileURLWithPath: socket).deletingLastPathComponent().standardizedFileURL.path
        let stateParent = stateDirectory.deletingLastPathComponent().standardizedFileURL.path
        guard resolved != "/", resolved == socketDirectory, resolved == stateParent else {
            throw .usage(
                "--remove-at-exit \(directory): must be the directory of both the socket (\(socketDirectory)) and the state directory (\(stateParent))")
        }
        return resolved
    }

    /// Starts accepting and handling signals (and the lifeline) and tells the service manager.
    private func serve(lifeline: Bool) -> Serving {
        let signals = TerminationSignals(shutdown: shutdown)
        reload.watch(on: DispatchQueue(label: "clarityd.reload"))
        if lifeline { Lifeline.watch { [shutdown] in shutdown.run(reason: "lifeline: standard input closed") } }
        loops.start()
        listener.start()
        log.info("clarityd \(ClarityProtocol.version) listening on \(socketPath)")
        log.info("state directory \(stateDirectory.path), pid \(getpid())")
        notifier.notify("READY=1")
        let watchdog = notifier.startWatchdog { [loops] in loops.allTurning(within: .seconds(1)) }
        let trimming = SystemCall.returnFreedMemory(every: .seconds(10))
        return Serving(daemon: self, signals: signals, watchdog: watchdog, trimming: trimming)
    }

    /// A started daemon and the sources that keep it serving.
    // unchecked: immutable; Dispatch's source protocols are not marked Sendable
    struct Serving: @unchecked Sendable {
        let daemon: Daemon
        let signals: TerminationSignals
        let watchdog: DispatchSourceTimer?
        let trimming: DispatchSourceTimer

        /// The daemon serving in this process, for its whole life: held where LeakSanitizer
        /// looks (a global), since the process ends in ``Shutdown`` on another thread while
        /// the main thread is parked, and what only the parked frame held was reported as leaked.
        private static let current = Protected<Serving?>(nil)

        /// Parks the main thread for the daemon's life; the process ends in ``Shutdown``.
        ///
        /// Not `dispatchMain()`: it ends the main thread with `pthread_exit`, and libdispatch's
        /// cleanup of that thread opens an eventfd for the main queue, which traps (SIGILL) when
        /// the daemon is out of descriptors at that instant — a flood of clients at start-up
        /// killed it so, 7 runs in 25 (docs/reliability.md, "Found: out of descriptors at
        /// start-up"). Nothing here uses the main queue; the thread waits for signals, which
        /// the daemon takes through Dispatch sources (``TerminationSignals``).
        func park() -> Never {
            Self.current.withLock { $0 = self }
            while true { pause() }
        }
    }
}
