import ControlProtocol
import Foundation

/// Conversions from command-line words to JSON parameters, with usage errors that name the
/// offending argument.
enum ArgumentValues {
    /// A value given as JSON when it parses as JSON (`true`, `3`, `'["a"]'`, `'"x"'`), else the
    /// word itself as a string. So `enabled=true` is a boolean and `ssid=Home` a string.
    static func jsonOrString(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: Data(text.utf8))) ?? .string(text)
    }

    /// A value that must be JSON; `name` is the option or argument it came from.
    static func json(_ text: String, for name: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: Data(text.utf8))
        } catch {
            throw UsageError("\(name) is not valid JSON: \(text)")
        }
    }

    /// A JSON object; `name` is the option or argument it came from.
    static func jsonObject(_ text: String, for name: String) throws -> [String: JSONValue] {
        guard case .object(let members) = try json(text, for: name) else {
            throw UsageError("\(name) must be a JSON object, got: \(text)")
        }
        return members
    }

    /// `key=value` words as object members, each value JSON-or-string (``jsonOrString(_:)``).
    static func keyValuePairs(_ words: [String]) throws -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw UsageError("expected key=value, got '\(word)'")
            }
            members[String(word[..<equals])] = jsonOrString(String(word[word.index(after: equals)...]))
        }
        return members
    }

    /// A whole number; `name` is the option it came from.
    static func integer(_ text: String, for name: String, minimum: Int = .min) throws -> Int {
        guard let value = Int(text), value >= minimum else {
            let expected = minimum == 1 ? "a positive integer" : minimum == 0 ? "a non-negative integer" : "an integer"
            throw UsageError("\(name) must be \(expected), got '\(text)'")
        }
        return value
    }

    /// A number, sent as an integer when it is whole.
    static func number(_ text: String, for name: String) throws -> JSONValue {
        if let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(name) must be a number, got '\(text)'")
        }
        return .double(value)
    }

    /// One of `choices`; `name` is the option it came from.
    static func choice(_ text: String, for name: String, among choices: [String]) throws -> String {
        guard choices.contains(text) else {
            throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}
