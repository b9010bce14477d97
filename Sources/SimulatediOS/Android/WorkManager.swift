import ExtensionSandbox

/// `WorkManager.getInstance(context)`.
public struct WorkManager: Sendable {
    @_spi(Host) public let agent: WorkAgent
    @_spi(Host) public let kind: DevicePlatform

    /// `enqueueUniqueWork(name, policy, request)`.
    public func enqueueUniqueWork(_ name: String, _ policy: ExistingWorkPolicy, _ request: OneTimeWorkRequest) async throws {
        try kind.require(.android, "WorkManager works")
        try WorkRun.checkCancellation()
        try CallbackContext.platformCall(VisibleOperation("enqueue", "WorkManager", name))
        await agent.enqueueUnique(name, policy: policy, request: request)
    }
}
