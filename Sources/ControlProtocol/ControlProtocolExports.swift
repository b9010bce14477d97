/// The JSON values the protocol carries (``JSONValue``, ``JSONWire``, ``JSONValueDecoder``), so
/// that a client of the protocol needs one import.
@_exported import JSONValues
