public enum DeviceActorsPlaceholder {}
