// Part of the Foqos port (docs/porting-foqos.md); not in the original.

import Foundation
import SimulatediOS

extension Platform {
  /// `Date()`: the device's virtual now as a date (the wall clock would break replay).
  var currentDate: Date { calendar.date(now) }
}
