import Foundation

/// A person in the device's address book (`contacts.set`).
public struct Contact: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var phone: String?

    public init(id: String, name: String, phone: String? = nil) {
        self.id = id
        self.name = name
        self.phone = phone
    }
}
