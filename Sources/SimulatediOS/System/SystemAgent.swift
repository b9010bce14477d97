import ExtensionSandbox

/// Device-wide facts app code may ask for: the WiFi network (`NEHotspotNetwork`), the address
/// book (`CNContactStore`), Focus mode, and opening URLs (`UIApplication.open`), which the
/// device's ``SpringBoard`` performs.
@_spi(Host) public actor SystemAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    /// Who listens for calls and network changes (`CXCallObserver`, `NWPathMonitor`).
    @_spi(Host) public nonisolated let observers = SystemObservers()
    private let trace: DeviceTrace
    @_spi(Host) public private(set) var ssid: String?
    @_spi(Host) public private(set) var contacts: [Contact] = []
    @_spi(Host) public private(set) var focusModeOn = false
    private var urlOpener: (@Sendable (String) async -> Bool)?
    private var mainAppRunner: (@Sendable (@escaping @Sendable () async -> Void) async -> Void)?

    @_spi(Host) public init(executor: WorldActorExecutor, trace: DeviceTrace) {
        self.executor = executor
        self.trace = trace
    }

    @_spi(Host) public func setURLOpener(_ opener: @escaping @Sendable (String) async -> Bool) {
        urlOpener = opener
    }

    /// How main-app timer actions run: under the main app's identity, shields re-checked after.
    @_spi(Host) public func setMainAppRunner(_ runner: @escaping @Sendable (@escaping @Sendable () async -> Void) async -> Void) {
        mainAppRunner = runner
    }

    @_spi(Host) public func runAsMainApp(_ action: @escaping @Sendable () async -> Void) async {
        if let mainAppRunner {
            await mainAppRunner(action)
        } else {
            await action()
        }
    }

    @_spi(Host) public func setSSID(_ ssid: String?) { self.ssid = ssid }

    @_spi(Host) public func setContacts(_ contacts: [Contact]) { self.contacts = contacts }

    /// Focus mode as a snapshot saved it: system state, which a compaction or a restart keeps
    /// (untraced: nothing changed on the device).
    @_spi(Host) public func restore(focusModeOn: Bool) { self.focusModeOn = focusModeOn }

    @_spi(Host) public func setFocusMode(_ on: Bool) {
        guard on != focusModeOn else { return }
        focusModeOn = on
        trace.record(.focusMode(on: on))
    }

    func open(_ url: String) async -> Bool {
        trace.record(.openURL(url: url))
        return await urlOpener?(url) ?? false
    }
}

/// What app code sees of ``SystemAgent``.
public struct SystemServices: Sendable {
    @_spi(Host) public let agent: SystemAgent

    /// `NEHotspotNetwork.fetchCurrent`: the joined network's SSID, nil when not on WiFi.
    public func currentSSID() async throws -> String? {
        try CallbackContext.platformCall(VisibleOperation("read", "NEHotspotNetwork", "ssid"))
        return await agent.ssid
    }

    /// `CNContactStore`: the address book set with `contacts.set`.
    public func contacts() async throws -> [Contact] {
        try CallbackContext.platformCall(VisibleOperation("read", "CNContactStore", "contacts"))
        return await agent.contacts
    }

    /// Turns iOS Focus mode on or off (notifications delivered meanwhile are silenced).
    public func setFocusMode(_ on: Bool) async throws {
        try CallbackContext.platformCall(VisibleOperation("write", "Focus", on ? "on" : "off"))
        await agent.setFocusMode(on)
    }

    /// `UIApplication.shared.open(url)`: `sms://…` opens Messages, `tel://…` opens Phone.
    @discardableResult
    public func open(_ url: String) async throws -> Bool {
        try CallbackContext.platformCall(VisibleOperation("open", url))
        return await agent.open(url)
    }
}
