import ControlProtocol

/// Every device method and its handler, one line each (docs/protocol.md, Methods).
enum DeviceRoutes {
    typealias Route = @Sendable (DeviceService, Params) throws -> JSONValue

    static let table: [String: Route] = [
        Method.deviceCreate.rawValue: { try $0.create($1) },
        Method.deviceList.rawValue: { try $0.list($1) },
        Method.deviceRemove.rawValue: { try $0.remove($1) },
        Method.deviceState.rawValue: { try $0.state($1) },
        Method.deviceConfig.rawValue: { try $0.config($1) },
        Method.event.rawValue: { try $0.event($1) },
        Method.clockAdvance.rawValue: { try $0.advance($1) },
        Method.clockNow.rawValue: { try $0.now($1) },
        Method.intent.rawValue: { try $0.intent($1) },
        Method.storeGet.rawValue: { try $0.storeGet($1) },
        Method.storeSet.rawValue: { try $0.storeSet($1) },
        Method.storeRemove.rawValue: { try $0.storeRemove($1) },
        Method.storeDump.rawValue: { try $0.storeDump($1) },
        Method.shieldsGet.rawValue: { try $0.shields($1) },
        Method.shieldConfig.rawValue: { try $0.shieldConfig($1) },
        Method.notificationsList.rawValue: { try $0.notifications($1) },
        Method.sandboxList.rawValue: { try $0.sandboxes($1) },
        Method.activityStart.rawValue: { try $0.activityStart($1) },
        Method.activityStop.rawValue: { try $0.activityStop($1) },
        Method.activityList.rawValue: { try $0.activityList($1) },
        Method.traceGet.rawValue: { try $0.trace($1) },
    ]
}
