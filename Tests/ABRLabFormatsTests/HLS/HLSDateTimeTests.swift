import ABRLab
import ABRLabFormats
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSDateTimeTests {
    @Test func parsesTheSeedsFormWithMilliseconds() throws {
        let date = try HLSTestSupport.date("2025-10-29T10:30:45.123Z")
        #expect(abs(date.timeIntervalSince1970 - 1_761_733_845.123) < 1e-6)
        #expect(HLSDateTime.format(date) == "2025-10-29T10:30:45.123Z")
    }

    @Test func readsZoneOffsetsAndFractionLengths() throws {
        let utc = try HLSTestSupport.date("2025-10-29T10:30:45.5Z")
        for text in ["2025-10-29T12:30:45.5+02:00", "2025-10-29T12:30:45.500+0200", "2025-10-29T05:00:45.5-05:30",
                     "2025-10-29T12:30:45.500000+02", "2025-10-29t10:30:45.5z"] {
            #expect(try HLSTestSupport.date(text) == utc, "\(text)")
        }
        let whole = try HLSTestSupport.date("2025-10-29T10:30:45Z")
        #expect(whole.timeIntervalSince1970 == 1_761_733_845)
        #expect(HLSDateTime.format(whole) == "2025-10-29T10:30:45.000Z")
        #expect(HLSDateTime.format(try HLSTestSupport.date("2025-10-29T10:30:45.123456789Z")) == "2025-10-29T10:30:45.123Z")
        #expect(HLSDateTime.format(try HLSTestSupport.date("2024-02-29T23:59:59.9996Z")) == "2024-03-01T00:00:00.000Z")
    }

    @Test(arguments: [
        "2025-10-29 10:30:45Z", "2025-10-29T10:30:45", "2025-02-29T00:00:00Z", "2025-10-29T24:00:00Z",
        "2025-10-29T10:30:45.Z", "2025-10-29T10:30Z", "2025-10-29T10:30:45+2", "2025-10-29T10:30:45Zjunk", "",
    ])
    func rejectsIncompleteOrImpossibleDates(text: String) {
        #expect(HLSDateTime.parse(text) == nil)
    }

    @Test func formatsAndParsesEveryEraBackToTheSameInstant() throws {
        #expect(HLSDateTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(HLSDateTime.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(HLSDateTime.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(HLSDateTime.format(Date(timeIntervalSince1970: -2_203_891_200)) == "1900-03-01T00:00:00.000Z")
        for days in stride(from: -700_000, through: 2_900_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400 + 3_661.5)
            let text = HLSDateTime.format(date)
            #expect(try HLSTestSupport.date(text) == date, "\(text)")
        }
    }
}
