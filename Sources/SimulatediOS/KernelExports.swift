import ExtensionSandbox

/// The kernel's types an app must name, re-exported so that an app imports only `SimulatediOS`
/// and never the kernel itself (docs/sdk.md, "What an app can reach"): its main app and
/// extensions are actors (`WorldActor`) on executors it is given (`WorldActorExecutor`, from
/// ``ProcessExecutors`` or the device), and it keeps instants of the device's clock
/// (`VirtualInstant`, from ``Platform/now``); its invariants read the device's trace
/// (`TraceEntry`, given to ``InvariantCheck``). The runtime that steps them (`World`, its
/// scheduler and clock) is not among them.
@_exported import protocol ExtensionSandbox.WorldActor
@_exported import class ExtensionSandbox.WorldActorExecutor
@_exported import struct ExtensionSandbox.VirtualInstant
@_exported import struct ExtensionSandbox.TraceEntry

/// A timer set with ``Platform/scheduleAppTimer(after:label:action:)``, kept to cancel it
/// (``Platform/cancelAppTimer(_:)``): named here so that an app need not name the clock.
public typealias AppTimerID = VirtualClock.TimerID
