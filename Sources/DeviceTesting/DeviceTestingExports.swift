/// What `TestDevice`'s own API takes, so that a test importing `DeviceTesting` (a product) can
/// build it: the device's config (`TestDevice(app:config:)`), the backends several devices share
/// (`servers:`) and a device made elsewhere (`TestDevice(wrapping:)`). The host module itself
/// is no product (issue 21: the harness without the host).
@_exported import struct DeviceActors.DeviceConfig
@_exported import class DeviceActors.Servers
@_exported import class DeviceActors.SimulatedDevice
