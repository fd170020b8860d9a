import ABRLabPlayerKit
import ABRLabResults
import Testing
import TestSupport

/// `formats.csv`'s rows: segments and levels 1-based, as in every output.
@Suite(.tags(.core), .selectedByTags) struct FormatTimelineCSVTests {
    @Test func writesOneRowPerChange() {
        let changes: [FormatTimeline.Change] = [
            .init(segmentIndex: 0, level: 1, format: "HIGH", mediaSeconds: 0, arrivalSeconds: 1),
            .init(segmentIndex: 2, level: 2, format: "LOSSLESS", mediaSeconds: 8, arrivalSeconds: 7),
        ]
        #expect(FormatTimeline.csvText(changes) == """
            segment,level,format,media_s,arrival_s
            1,2,HIGH,0,1
            3,3,LOSSLESS,8,7

            """)
    }
}
