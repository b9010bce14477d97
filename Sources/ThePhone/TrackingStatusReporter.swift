import SimulatediOS

/// Tells the backend what the phone found about its own tracking (`PUT
/// /users/me/tracking-status`, seed "Tracking Status & Social Visibility": `verified` "Setup
/// completed and working", `broken` "Health check detected issues").
///
/// When (docs/apps/thephone.md, "Setup and tracking health"): `verified` when setup verifies (the
/// seed's `saveVerificationState()`) and after a healthy check; `broken` after a check that finds
/// any issue but `neverVerified` (choice: the seed shows its banner and names the status, not the
/// call). Only when signed in; a report that fails (offline) is dropped: the next check when the
/// app becomes active reports again.
struct TrackingStatusReporter: Sendable {
    let api: APIClient
    let session: Session

    func report(_ status: TrackingStatusUpdate.Status) async {
        guard await session.username != nil else { return }
        do {
            try await api.updateTrackingStatus(status)
        } catch {
            // Dropped: the trace shows the request that failed.
        }
    }
}
