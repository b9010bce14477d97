/// Zeller and Hildebrandt's delta debugging ("Simplifying and isolating failure-inducing
/// input", TSE 2002), as the shrinkers use it: removes runs of `items` — halves, then quarters …
/// then single items — while `keeps` says the rest still does what the whole did. The result is
/// 1-minimal for `keeps` (no single item of it can go) unless `shouldStop` cut it short.
public enum DeltaDebugging {
    public static func minimize<Item>(
        _ items: [Item], keeping minimum: Int = 0, keeps: ([Item]) -> Bool, shouldStop: () -> Bool
    ) -> [Item] {
        var best = items
        var chunk = max(1, best.count / 2)
        while best.count > minimum, !shouldStop() {
            var changed = false
            var start = 0
            while start < best.count, !shouldStop() {
                var candidate = best
                candidate.removeSubrange(start..<min(start + chunk, best.count))
                if candidate.count >= minimum, keeps(candidate) {
                    best = candidate
                    changed = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !changed { break }
            if !changed { chunk = max(1, chunk / 2) }
        }
        return best
    }
}
