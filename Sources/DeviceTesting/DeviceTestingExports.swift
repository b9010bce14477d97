/// What `TestDevice`'s own API takes, so that a test importing `DeviceTesting` (a product) can
/// build it: the device's config (`TestDevice(app:config:)`), the backends several devices share
/// (`servers:`) and a device made elsewhere (`TestDevice(wrapping:)`). The host module itself
/// is no product (issue 21: the harness without the host).
@_exported import struct DeviceActors.DeviceConfig
@_exported import class DeviceActors.Servers
@_exported import class DeviceActors.SimulatedDevice
@_exported import enum DeviceActors.DeviceEvent

// A scenario built in Swift and explored from a test (`ScenarioExploration.swift`).
@_exported import struct DeviceActors.Scenario
@_exported import enum DeviceActors.ScenarioStep
@_exported import enum DeviceActors.ScenarioCondition
@_exported import enum DeviceActors.ValueMatch
@_exported import enum DeviceActors.InputFailure
@_exported import struct DeviceActors.DeviceObservation
@_exported import struct DeviceActors.ExplorationPlan
@_exported import struct DeviceActors.ExplorationReport
@_exported import struct DeviceActors.ExplorationFailure
@_exported import struct DeviceActors.ScenarioOutcome
@_exported import struct DeviceActors.ScenarioFailureReason
@_exported import struct DeviceActors.ScenarioInvalid

// The JSON an intent takes and answers, and an app's state as `appState()` reads it.
@_exported import enum JSONValues.JSONValue
