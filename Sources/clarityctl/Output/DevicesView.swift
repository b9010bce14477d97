import ControlProtocol

/// `device.list`: a table of the device summaries, each led by what runs on it — its name, its
/// app (or apps, as `a, b`) and its platform — then its clock.
///
/// ```
/// name     app         apps               platform  t  time                  clock    …
/// both     dailylimit  dailylimit, other  ios       0  2026-01-05T09:00:00Z  virtual  …
/// default  dailylimit  -                  ios       0  2026-01-05T09:00:00Z  virtual  …
/// ```
enum DevicesView {
    static func lines(for result: JSONValue) -> [String] {
        guard case .array(let items) = result, !items.isEmpty else { return GenericView.lines(for: result) }
        let devices = items.compactMap(\.objectValue)
        guard devices.count == items.count else { return GenericView.lines(for: result) }
        return TextTable.lines(devices, leadingColumns: ["name", "app", "apps", "platform"], cell: PlainText.inline)
    }
}
