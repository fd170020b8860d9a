import ABRLab
import ABRLabPlayerKit
import ABRLabResults
import EngineFixtures
import Testing
import TestSupport

/// `buffer_timeline.csv`'s rows, from the hand-played session.
@Suite(.tags(.core), .selectedByTags) struct BufferTimelineCSVTests {
    @Test func writesCSVRows() {
        let samples = BufferTimeline(session: HandPlayedSession.session()).samples(intervalSeconds: 1)
        let lines = BufferTimeline.csvText(samples).split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines[0] == "time_s,buffer_s,buffer_state,progress,fill_rate_s_per_s,likely_to_keep_up,network_active")
        #expect(lines[1] == "0,0,empty,0,0,false,true")
        #expect(lines[3] == "2,4,low,0.13333333333333333,4,false,true")
        #expect(lines[6] == "5,5,low,0.16666666666666666,3,true,false")
    }
}
