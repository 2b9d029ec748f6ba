import Testing

@testable import NoteWatch

/// A baseline waits for a quiet moment: no sync moved a log for two seconds, or two minutes
/// of a load that does not stop.
@Suite struct QuietMomentTests {
    let moment = QuietMoment(quiet: .seconds(2), longest: .seconds(120))
    let start = ContinuousClock.now

    @Test func workStartsAtOnceWhenNothingMovedLately() {
        #expect(moment.wait(now: start, lastMoved: nil, dueSince: start) == nil)
        #expect(moment.wait(now: start + .seconds(5), lastMoved: start, dueSince: start) == nil)
        #expect(moment.wait(now: start + .seconds(2), lastMoved: start, dueSince: start) == nil)
    }

    @Test func workWaitsUntilTheContainerHasBeenQuietForTwoSeconds() {
        let now = start + .milliseconds(500)
        #expect(moment.wait(now: now, lastMoved: start, dueSince: start) == .milliseconds(1500))
        #expect(moment.wait(now: now, lastMoved: now, dueSince: start) == .seconds(2))
    }

    @Test func workWaitsNoLongerThanTwoMinutes() {
        let now = start + .seconds(119)
        #expect(moment.wait(now: now, lastMoved: now, dueSince: start) == .seconds(1))
        #expect(moment.wait(now: start + .seconds(120), lastMoved: now, dueSince: start) == nil)
    }
}
