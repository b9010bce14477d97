import Foundation

/// A request to a server, as `URLRequest` carries it (the fields an app sets). Foundation's own
/// `URLRequest` lives in FoundationNetworking on Linux, which links libcurl: the simulated
/// network needs none of it, so apps build this value instead (docs/sdk.md, porting table).
public struct NetworkRequest: Sendable, Codable, Equatable {
    /// `url`: `https://<host><path>`, as the app's API client builds it.
    public var url: String
    /// `httpMethod`: `GET`, `POST`, `PUT`, `DELETE`.
    public var httpMethod: String
    /// `httpBody`: the JSON the app sends (nil for none).
    public var httpBody: Data?

    public init(url: String, httpMethod: String = "GET", httpBody: Data? = nil) {
        self.url = url
        self.httpMethod = httpMethod
        self.httpBody = httpBody
    }

    /// The host part of ``url`` (`api.example.com`), nil when the URL has none.
    public var host: String? { URLComponents(string: url)?.host }

    /// The path part of ``url`` (`/events/sync`), `/` when empty.
    public var path: String {
        let path = URLComponents(string: url)?.path ?? ""
        return path.isEmpty ? "/" : path
    }
}

/// A server's answer, as `HTTPURLResponse` and the data `URLSession.data(for:)` returns.
public struct HTTPResponse: Sendable, Codable, Equatable {
    /// `statusCode`.
    public let statusCode: Int
    /// The body (JSON from the simulated servers).
    public let body: Data

    public init(statusCode: Int, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// A push notification a server sent to this device (APNs, FCM): shown by the system, as an
/// alert push is, with the app's name as its `source` and its `category`.
public struct PushMessage: Sendable, Codable, Equatable {
    public let title: String
    public let body: String
    /// The notification's category (the app's own, e.g. what the push is about).
    public let category: String?
    /// When the server sent it, milliseconds since 1970 (shown when the device's clock gets there).
    public let sentAt: Int64

    public init(title: String, body: String, category: String?, sentAt: Int64) {
        self.title = title
        self.body = body
        self.category = category
        self.sentAt = sentAt
    }
}
