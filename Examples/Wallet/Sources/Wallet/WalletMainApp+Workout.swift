import SimulatediOS

extension WalletMainApp {
    /// A workout finished (the workout view's "Done" button): the minutes are earned and shown at
    /// once, and the sync goes on in the background, the way SwiftUI code does it —
    /// `Button("Done") { model.finish(workout) }` with `Task { await sync() }` inside.
    ///
    /// The naive variant starts a sync task per workout: two workouts finished within a round
    /// trip make two syncs in flight together, each sending what was pending when it started,
    /// and the minutes of the first are sent twice (or, with the read-then-write sync, a balance
    /// is overwritten). The fixed variant runs one background sync at a time: a workout finished
    /// while one runs asks it to go round once more.
    func finishWorkout(_ minutes: Int) async throws -> WalletStatus {
        let status = try await earn(minutes)
        switch process.settings.variant {
        case .naive:
            Task { await self.syncInBackground() }
        case .fixed:
            if backgroundSyncRunning {
                backgroundSyncAgain = true
            } else {
                backgroundSyncRunning = true
                Task { await self.syncUntilNothingIsLeft() }
            }
        }
        return status
    }

    private func syncUntilNothingIsLeft() async {
        repeat {
            backgroundSyncAgain = false
            await syncInBackground()
        } while backgroundSyncAgain
        backgroundSyncRunning = false
    }

    /// A sync nobody waits on: what it throws is logged, as the app's view model would show it.
    private func syncInBackground() async {
        do {
            _ = try await sync()
        } catch {
            process.platform.logger(category: "sync").error("background sync failed: \(error)")
        }
    }
}
