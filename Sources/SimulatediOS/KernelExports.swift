/// What an app needs of the kernel, re-exported so that an app imports only `SimulatediOS`:
/// its main app and extensions are actors on the world's executors (`WorldActor`,
/// `WorldActorExecutor`), and its bundle is made on the `World`.
@_exported import protocol ExtensionSandbox.WorldActor
@_exported import class ExtensionSandbox.WorldActorExecutor
@_exported import class ExtensionSandbox.World
