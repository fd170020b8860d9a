import ABRLab
import ABRLabFormats
import Testing
import TestSupport

/// Every input the fuzzers (`scripts/fuzz`, Tests/Fuzz) found crashing a parser, breaking one of
/// its properties, or using too much memory, replayed through the public API: each now gets
/// the one-line error below.
@Suite(.tags(.core, .fuzz), .selectedByTags) struct FuzzFindingsTests {
    /// The parser entry point a finding came from, named like its fuzz target.
    enum Entry: String, Sendable {
        case traceAuto = "trace-auto"
        case traceCSV = "trace-csv"
        case traceMahimahi = "trace-mahimahi"
        case importHSDPA = "import-hsdpa"
        case importIrish5G = "import-irish-5g"
        case cbrSpec = "cbr-spec"

        func parse(_ text: String) throws(InputError) {
            switch self {
            case .traceAuto: _ = try TraceLoader.parse(text, file: "trace")
            case .traceCSV: _ = try TraceLoader.parse(text, file: "trace.csv", format: .csv)
            case .traceMahimahi: _ = try TraceLoader.parse(text, file: "trace", format: .mahimahi)
            case .importHSDPA: _ = try TraceImporter.hsdpaLog(text, file: "log.txt", name: "log")
            case .importIrish5G: _ = try TraceImporter.irish5G(text, file: "log.csv", name: "log")
            case .cbrSpec: _ = try VideoLoader.cbr("cbr:" + text)
            }
        }
    }

    struct Finding: Sendable, CustomStringConvertible {
        let entry: Entry
        /// What went wrong before the fix.
        let what: String
        let input: String
        /// The error, or its start when the rest is a hint that may change.
        let error: String
        var description: String { "\(entry.rawValue): \(what)" }
    }

    static let findings: [Finding] = [
        Finding(
            entry: .traceCSV, what: "a header column named '_' indexed an empty split (crash)", input: "_",
            error: "trace.csv:1: unknown column '_'; the header names "
        ),
        Finding(
            entry: .traceAuto, what: "the same crash through format detection", input: "_,db\\\n",
            error: "trace:1: unknown column '_'; the header names "
        ),
        Finding(
            entry: .traceMahimahi, what: "one huge timestamp allocated over 512 MB of bins", input: "005000500031",
            error: "trace:1: timestamp 5000500031 ms needs over 2000000 bins of 1000 ms; use wider bins"
        ),
        Finding(
            entry: .traceAuto, what: "a form feed in the quoted first line split the error line", input: "\u{0C}",
            error: "trace:1: cannot tell the trace format from '\\u{C}'; name it: pensieve, sabre, mahimahi, csv"
        ),
        Finding(
            entry: .importHSDPA, what: "the error named the trace instead of the file",
            input: "1294391250 617 59.851 10.646 2410 1000\n1294391251 617 59.851 10.646 2410 1e-320\n",
            error: "log.txt: period 2 does not end after the one before it"
        ),
        Finding(
            entry: .importIrish5G, what: "a 19-digit year overflowed the day arithmetic (crash)",
            input: "Timestamp,DL_bitrate\n-2222222222222222219.2.16_11.04.28,100\n",
            error: "log.csv:2: cannot read the timestamp '-2222222222222222219.2.16_11.04.28'; expected YYYY.MM.DD_HH.MM.SS"
        ),
        Finding(
            entry: .cbrSpec, what: "a huge segment count asked for petabytes of sizes", input: "2x666666666666665",
            error: "cbr:2x666666666666665: 666666666666665 segments × 1 levels is over 10000000 segment sizes"
        ),
        Finding(
            entry: .cbrSpec, what: "a huge segment duration overflowed the size in bytes", input: "300@1e300s",
            error: "cbr:300@1e300s: a segment of 1e+300 s at the top level is over 1 PB"
        ),
    ]

    @Test(arguments: findings) func findingGetsOneLineError(_ finding: Finding) {
        #expect(throws: InputError.self) { try finding.entry.parse(finding.input) }
        do throws(InputError) {
            try finding.entry.parse(finding.input)
        } catch {
            #expect(error.description.hasPrefix(finding.error), "\(error)")
            #expect(!error.description.contains { $0.isNewline })
        }
    }

    /// cbr-spec timed out (over 1 s under AddressSanitizer) on a spec within the size limit: the
    /// video was built as one small array per segment before being flattened.
    @Test func longCBRVideoWithinTheLimitIsBuilt() throws {
        let video = try VideoLoader.cbr("cbr:27x7277772")
        #expect(video.segmentCount == 7_277_772)
        #expect(video.levelCount == 1)
        #expect(video.sizeBytes(segment: 7_277_771, level: 0) == 13_500)
        #expect(video.sizeBytes(segment: 0, level: 0) == 13_500)
    }
}
