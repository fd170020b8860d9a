import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct VideoCBRSpecTests {
    @Test(arguments: [
        ("cbr:300,750,1200@4s", [300.0, 750, 1200], 4.0, 48),
        ("cbr:300,750@2500msx10", [300, 750], 2.5, 10),
        ("CBR:500", [500], 4, 48),
        ("cbr: 300 , 1850.5 x3", [300, 1850.5], 4, 3),
        ("cbr:100@0.5s", [100], 0.5, 48),
    ])
    func parsesSpecs(spec: String, kbps: [Double], durationSeconds: Double, segmentCount: Int) throws {
        let video = try VideoLoader.load(spec)
        #expect(video.name == spec)
        #expect(video.bitratesKbps == kbps)
        #expect(video.segmentDurationSeconds == durationSeconds)
        #expect(video.segmentCount == segmentCount)
        #expect(video.sizeBytes(segment: 0, level: 0) == Int((kbps[0] * 1000 * durationSeconds / 8).rounded()))
    }

    @Test func labelsLevelsByBitrate() throws {
        #expect(try VideoLoader.load("cbr:300,1850.5").ladder.map(\.label) == ["300k", "1850.5k"])
    }

    @Test func argumentsFillWhatTheSpecLeavesOut() throws {
        let video = try VideoLoader.load("cbr:300,750", segmentDurationSeconds: 2, segmentCount: 5)
        #expect(video.segmentDurationSeconds == 2)
        #expect(video.segmentCount == 5)
        #expect(try VideoLoader.load("cbr:300@2s", segmentDurationSeconds: 2).segmentDurationSeconds == 2)
    }

    @Test(arguments: [
        ("cbr:", "cbr:: '' is not a bitrate in kbps; write e.g. cbr:300,750,1200@4s"),
        ("cbr:300,abc", "cbr:300,abc: 'abc' is not a bitrate in kbps; write e.g. cbr:300,750,1200@4s"),
        ("cbr:300,,750", "cbr:300,,750: '' is not a bitrate in kbps; write e.g. cbr:300,750,1200@4s"),
        ("cbr:300@4", "cbr:300@4: segment duration '4' needs a unit: s or ms, e.g. @4s or @2500ms"),
        ("cbr:300@-1s", "cbr:300@-1s: segment duration '-1s' must be a number > 0 with its unit, e.g. @4s"),
        ("cbr:300x0", "cbr:300x0: segment count '0' after x must be a whole number > 0"),
        ("cbr:300@4sx", "cbr:300@4sx: segment count '' after x must be a whole number > 0"),
        ("cbr:750,300", "cbr:750,300: bitrates must ascend, but 300k follows 750k"),
        ("cbr:0", "cbr:0: bitrate 0 kbps must be > 0 and at most 1e9"),
        ("cbr:nan", "cbr:nan: bitrate nan kbps must be > 0 and at most 1e9"),
    ])
    func rejectsBadSpecs(spec: String, expected: String) {
        let error = #expect(throws: InputError.self) { try VideoLoader.load(spec) }
        #expect(error?.description == expected)
    }

    @Test func rejectsArgumentsThatContradictTheSpec() {
        #expect(throws: InputError(file: "cbr:300@4s", "the spec's segment duration differs from the given 2 s")) {
            try VideoLoader.load("cbr:300@4s", segmentDurationSeconds: 2)
        }
        #expect(throws: InputError(file: "cbr:300x4", "the spec's segment count differs from the given 5")) {
            try VideoLoader.load("cbr:300x4", segmentCount: 5)
        }
        #expect(throws: InputError(file: "cbr:300", "the spec's ladder differs from the given [300, 750] kbps")) {
            try VideoLoader.load("cbr:300", ladderKbps: [300, 750])
        }
    }
}
