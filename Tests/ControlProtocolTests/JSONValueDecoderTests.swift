import ControlProtocol
import Testing

/// The strict decoder every request goes through: typos and ill-fitting numbers are refused,
/// each naming the field by its JSON path.
@Suite struct JSONValueDecoderTests {
    private struct Gate: Decodable, Equatable {
        var enabled: Bool?
        var strictMode: Bool?
    }

    private struct Contact: Decodable, Equatable {
        var id: String
        var name: String?
    }

    private struct Contacts: Decodable, Equatable {
        var contacts: [Contact]
    }

    private struct Budgets: Decodable, Equatable {
        var monitor: Int?
        var values: [String: Int]?
        var anything: JSONValue?
    }

    private let decoder = JSONValueDecoder()

    private func failure<T: Decodable>(_ type: T.Type, _ value: JSONValue, root: String = "") -> FieldError? {
        do {
            _ = try decoder.decode(type, from: value, root: root)
            return nil
        } catch {
            return error as? FieldError
        }
    }

    @Test func decodesWhatTheTypeAsksFor() throws {
        #expect(try decoder.decode(Gate.self, from: ["enabled": true]) == Gate(enabled: true))
        #expect(try decoder.decode(Gate.self, from: ["enabled": nil, "strictMode": false]) == Gate(strictMode: false))
        let contacts = try decoder.decode(Contacts.self, from: ["contacts": [["id": "mom", "name": "Mom"]]])
        #expect(contacts == Contacts(contacts: [Contact(id: "mom", name: "Mom")]))
    }

    @Test func anUnknownMemberIsRefusedWithTheNearestKnownName() {
        #expect(
            failure(Gate.self, ["enable": true], root: "args")
                == FieldError(field: "args.enable", reason: "unknown; did you mean enabled?"))
        #expect(
            failure(Budgets.self, ["Monitor": 1], root: "config")
                == FieldError(field: "config.Monitor", reason: "unknown; did you mean monitor?"))
        #expect(
            failure(Gate.self, ["colour": "red"])
                == FieldError(field: "colour", reason: "unknown; expected one of enabled, strictMode"))
    }

    @Test func unknownMembersAreFoundInNestedObjectsAndArrays() {
        #expect(
            failure(Contacts.self, ["contacts": [["id": "a"], ["id": "b", "nmae": "B"]]], root: "args")
                == FieldError(field: "args.contacts[1].nmae", reason: "unknown; did you mean name?"))
    }

    @Test func aMisspelledRequiredMemberIsReportedAsTheTypo() {
        #expect(
            failure(Contacts.self, ["contacts": [["ids": "a"]]])
                == FieldError(field: "contacts[0].ids", reason: "unknown; did you mean id?"))
        #expect(failure(Contacts.self, ["contacts": [["name": "a"]]]) == FieldError(field: "contacts[0].id", reason: "required"))
    }

    @Test func dictionariesAndFreeFormValuesTakeAnyMember() throws {
        let budgets = try decoder.decode(Budgets.self, from: ["values": ["x": 1, "y": 2], "anything": ["z": ["w": 1]]])
        #expect(budgets.values == ["x": 1, "y": 2])
        #expect(budgets.anything == ["z": ["w": 1]])
    }

    @Test func numbersMustFitTheirType() {
        #expect(failure(Budgets.self, ["monitor": 1.5]) == FieldError(field: "monitor", reason: "expected a whole number, got 1.5"))
        #expect(
            failure(Budgets.self, ["monitor": 1e19])
                == FieldError(field: "monitor", reason: "1e+19 is out of range (\(Int.min) to \(Int.max))"))
        #expect(failure(Budgets.self, ["monitor": "5"]) == FieldError(field: "monitor", reason: "expected an integer, got a string"))
        #expect(throws: Never.self) { try decoder.decode(Budgets.self, from: ["monitor": 2.0]) }
    }

    @Test func filesWrittenByAnotherVersionMayCarryMembersThisOneDoesNotKnow() throws {
        let lenient = JSONValueDecoder(unknownMembers: .ignore)
        #expect(try lenient.decode(Gate.self, from: ["enabled": true, "addedLater": 1]) == Gate(enabled: true))
    }

    @Test func aTypesOwnErrorsPassThrough() {
        struct Refusal: Error {}
        struct Picky: Decodable {
            init(from decoder: any Decoder) throws { throw Refusal() }
        }
        #expect(throws: Refusal.self) { try decoder.decode(Picky.self, from: [:]) }
    }

    @Test func typesAndNullsAreNamed() {
        #expect(failure(Gate.self, ["enabled": "yes"]) == FieldError(field: "enabled", reason: "expected a boolean, got a string"))
        #expect(failure(Contacts.self, ["contacts": [nil]]) == FieldError(field: "contacts[0]", reason: "must not be null"))
        #expect(failure(Contacts.self, ["contacts": nil]) == FieldError(field: "contacts", reason: "must not be null"))
        #expect(failure(Contacts.self, [1, 2]) == FieldError(field: "", reason: "expected an object, got an array"))
    }
}
