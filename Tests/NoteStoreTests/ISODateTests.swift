import Foundation
import NoteStore
import Testing

@Suite struct ISODateTests {
    /// The store's own form is read by hand; the result is the formatter's, to the millisecond.
    @Test func theStoresFormReadsBackToTheMillisecond() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for milliseconds: Int64 in [0, 1, 999, 1_000, 1_748_772_000_123, 253_402_300_799_999, -1, -86_400_001] {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = date.isoText
            let read = try #require(ISODate.date(from: text), "\(text)")
            #expect((read.timeIntervalSince1970 * 1000).rounded() == Double(milliseconds), "\(text)")
            let expected = try #require(formatter.date(from: text), "\(text)")
            #expect(abs(read.timeIntervalSince(expected)) < 0.0005, "\(text)")
        }
    }

    @Test func otherFormsAreLeftToTheFormatter() {
        #expect(ISODate.date(from: "2026-13-01T00:00:00.000Z") == nil)
        #expect(ISODate.date(from: "2026-01-01 00:00:00.000Z") == nil)
        #expect(ISODate.date(from: "2026-01-01T00:00:00.5Z") == Date(timeIntervalSince1970: 1_767_225_600.5))
        #expect(ISODate.date(from: "2026-01-01T02:00:00.000+02:00") == Date(timeIntervalSince1970: 1_767_225_600))
    }
}
