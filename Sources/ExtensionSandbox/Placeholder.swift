// placeholder, replaced by the runtime
public enum ExtensionSandboxPlaceholder {}
