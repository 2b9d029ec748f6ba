/// When heavy background work (a baseline, which copies the whole store) may start: once the
/// container has been quiet for ``quiet`` (no sync moved a log), or, under a load that does
/// not stop, once it has waited ``longest``. A baseline written while logs arrive by the
/// hundred a second holds up the syncs that carry them, on a disk that both must share.
struct QuietMoment {
    /// How long no sync must have moved a log.
    var quiet: Duration = .seconds(2)
    /// The longest the work waits for such a moment.
    var longest: Duration = .seconds(120)

    /// How much longer work that was due at `dueSince` waits at `now`, when a sync last moved
    /// logs at `lastMoved`: nil when it may start now.
    func wait(now: ContinuousClock.Instant, lastMoved: ContinuousClock.Instant?, dueSince: ContinuousClock.Instant)
        -> Duration?
    {
        guard let lastMoved, now - lastMoved < quiet else { return nil }
        guard now - dueSince < longest else { return nil }
        return min(quiet - (now - lastMoved), longest - (now - dueSince))
    }
}
