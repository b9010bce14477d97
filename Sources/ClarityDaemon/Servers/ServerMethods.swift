import ControlProtocol
import DeviceActors
import Foundation
@_spi(Host) import SimulatediOS

/// `server.list` and `server.call` (docs/protocol.md, "Servers"): the instances of the apps'
/// servers as an observer sees them, and the methods each server declares
/// (``ServerRegistration``, ``ServerMethod``). A server with a method prefix answers
/// `<prefix>.list` and `<prefix>.<method>` too, its instance named by the param `<prefix>` (The
/// Phone's `backend.users {"backend": "b"}`). A call naming a `device` reaches the instance that
/// device talks to unless it names one; finding it waits for the device's lane, so calls run off
/// the event loop. A method that changes the instance is saved before it is answered, as a
/// device's request is.
struct ServerMethods: Sendable {
    let store: ServerStore
    /// The devices, asked which instance one talks to.
    let devices: DeviceService
    /// The servers the daemon's apps registered.
    let registrations: [ServerRegistration]

    /// What makes the servers `apps` bring impossible to host side by side, in words for the
    /// start's failure; nil when nothing does: two servers of one name (their instances would
    /// share files), two sharing a state directory or a method prefix, a prefix that is one of
    /// the protocol's own namespaces (`device`), a state directory the daemon keeps its devices in.
    static func conflict(among apps: [AppRegistration]) -> String? {
        var byName: [String: (app: String, server: ServerRegistration)] = [:]
        var directories: [String: String] = ["devices": "the daemon's devices"]
        var prefixes: [String: String] = [:]
        for method in Method.allCases {
            let namespace = String(method.rawValue.prefix { $0 != "." })
            if prefixes[namespace] == nil { prefixes[namespace] = "the protocol's \(method.rawValue)" }
        }
        for app in apps.sorted(by: { $0.name < $1.name }) {
            guard let server = app.server else { continue }
            if let other = byName[server.name] {
                guard other.server.stateDirectory == server.stateDirectory, other.server.methodPrefix == server.methodPrefix,
                    other.server.hosts == server.hosts
                else { return "apps \(other.app) and \(app.name) bring two different servers named \(server.name)" }
                continue
            }
            byName[server.name] = (app.name, server)
            let directory = server.stateDirectory.split(separator: "/").first.map(String.init) ?? ""
            if let owner = directories[server.stateDirectory] ?? (directory == "devices" ? "the daemon's devices" : nil) {
                return "server \(server.name) (app \(app.name)) keeps its instances in \(server.stateDirectory), as \(owner) does"
            }
            directories[server.stateDirectory] = "server \(server.name)"
            if let prefix = server.methodPrefix {
                if let owner = prefixes[prefix] {
                    return "server \(server.name) (app \(app.name)) names its methods \(prefix).*, as \(owner) does"
                }
                prefixes[prefix] = "server \(server.name)"
            }
        }
        return nil
    }

    /// `server.list`: `[{"server","instance", …the server's summary}]`.
    func list(_ params: JSONValue?) throws -> JSONValue {
        _ = try decodeParams(NoParams.self, params)
        return .array(try store.servers.all.map { host in try row(host, naming: ["server": .string(host.registration.name), "instance": .string(host.name)]) })
    }

    /// `<prefix>.list`: the rows of `server`'s instances, each named by the prefix (`{"backend"}`).
    func list(of server: ServerRegistration, prefix: String) -> @Sendable (JSONValue?) throws -> JSONValue {
        { params in
            _ = try decodeParams(NoParams.self, params)
            return .array(
                try store.servers.all.filter { $0.registration.name == server.name }.map { try row($0, naming: [prefix: .string($0.name)]) })
        }
    }

    private func row(_ host: ServerHost, naming names: [String: JSONValue]) throws -> JSONValue {
        guard case .object(let summary) = try host.summary() else { return .object(names) }
        return .object(summary.merging(names) { _, name in name })
    }

    /// `server.call`: `{"server"?, "instance"?, "device"?, "method", "params"?}`.
    func call(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(Call.self, params)
        // Asked once: finding a device's instances waits for its lane.
        let deviceHosts = request.device.map(devices.serverInstances(ofDevice:)) ?? []
        let server = try server(named: request.server, deviceHosts: deviceHosts)
        return try call(
            server, method: request.method, params: request.params ?? .object([:]), instance: request.instance, instanceField: "instance",
            device: request.device, deviceHosts: deviceHosts, fieldPrefix: "params.")
    }

    /// `<prefix>.<method>`: the params are the method's, with the instance named `<prefix>`.
    func alias(of server: ServerRegistration, prefix: String, method: String) -> @Sendable (JSONValue?) throws -> JSONValue {
        { params in
            var members: [String: JSONValue]
            switch params {
            case nil, .null?: members = [:]
            case .object(let given)?: members = given
            default: throw RPCError.invalidParams(field: "params", reason: "must be an object")
            }
            let instance = members.removeValue(forKey: prefix)
            guard instance.map({ $0.stringValue != nil }) ?? true else {
                throw RPCError.invalidParams(field: prefix, reason: "must be a string")
            }
            guard members["device"].map({ $0.stringValue != nil }) ?? true else {
                throw RPCError.invalidParams(field: "device", reason: "must be a string")
            }
            let device = members["device"]?.stringValue
            return try call(
                server, method: method, params: .object(members), instance: instance?.stringValue, instanceField: prefix,
                device: device, deviceHosts: device.map(devices.serverInstances(ofDevice:)) ?? [], fieldPrefix: "")
        }
    }

    private func call(
        _ server: ServerRegistration, method: String, params: JSONValue, instance: String?, instanceField: String, device: String?,
        deviceHosts: [ServerHost], fieldPrefix: String
    ) throws -> JSONValue {
        let deviceInstance = deviceHosts.first { $0.registration.name == server.name }?.name
        let name = instance ?? deviceInstance ?? "default"
        guard let host = store.servers.existing(name, of: server.name) else {
            let known = store.servers.all.filter { $0.registration.name == server.name }.map(\.name)
            let noun = server.methodPrefix ?? "instance of \(server.name)"
            throw RPCError.invalidParams(
                field: instanceField,
                reason: "no \(noun) \(name) (known: \(known.isEmpty ? "none yet: one starts with the first device whose app talks to it" : known.joined(separator: ", ")))")
        }
        let answer: JSONValue
        do {
            answer = try host.call(method, params: params, context: ServerCallContext(instance: name, device: device, deviceInstance: deviceInstance))
        } catch .invalidParams(let field, let reason) {
            throw RPCError.invalidParams(field: field == "method" || field == "device" ? field : fieldPrefix + field, reason: reason)
        } catch .failed(let reason) {
            throw RPCError.internalError(reason)
        }
        if server.changesState(method) {
            do {
                try store.saveChanged()
            } catch {
                throw RPCError.storageFailed("\(server.methodPrefix ?? server.name) \(name) could not be saved", reason: "\(error)")
            }
        }
        return answer
    }

    /// The server `name` names; else the first one the device's instances (`deviceHosts`) are
    /// of; else the only one.
    private func server(named name: String?, deviceHosts: [ServerHost]) throws(RPCError) -> ServerRegistration {
        let known = registrations.map(\.name).joined(separator: ", ")
        if let name {
            guard let found = registrations.first(where: { $0.name == name }) else {
                throw .invalidParams(field: "server", reason: "no server \(name) (known: \(known.isEmpty ? "none" : known))")
            }
            return found
        }
        if let host = deviceHosts.first { return host.registration }
        guard registrations.count == 1, let only = registrations.first else {
            throw .invalidParams(field: "server", reason: registrations.isEmpty ? "no app of this daemon brings a server" : "give one of: \(known)")
        }
        return only
    }

    private struct Call: Decodable {
        var server: String?
        var instance: String?
        var device: String?
        var method: String
        var params: JSONValue?
    }
}
