import ABRLab
import Testing

/// Every input the fuzzers (`scripts/fuzz`, Tests/Fuzz) found crashing a parser, breaking one of
/// its properties, or using too much memory, replayed through the public API: each now gets
/// the one-line error below.
@Suite struct FuzzFindingsTests {
    /// The parser entry point a finding came from, named like its fuzz target.
    enum Entry: String, Sendable {
        case traceAuto = "trace-auto"
        case traceCSV = "trace-csv"
        case traceMahimahi = "trace-mahimahi"
        case importHSDPA = "import-hsdpa"
        case importIrish5G = "import-irish-5g"

        func parse(_ text: String) throws(InputError) {
            switch self {
            case .traceAuto: _ = try TraceLoader.parse(text, file: "trace")
            case .traceCSV: _ = try TraceLoader.parse(text, file: "trace.csv", format: .csv)
            case .traceMahimahi: _ = try TraceLoader.parse(text, file: "trace", format: .mahimahi)
            case .importHSDPA: _ = try TraceImporter.hsdpaLog(text, file: "log.txt", name: "log")
            case .importIrish5G: _ = try TraceImporter.irish5G(text, file: "log.csv", name: "log")
            }
        }
    }

    struct Finding: Sendable, CustomStringConvertible {
        let entry: Entry
        /// What went wrong before the fix.
        let what: String
        let input: String
        let error: String
        var description: String { "\(entry.rawValue): \(what)" }
    }

    static let findings: [Finding] = [
        Finding(
            entry: .traceCSV, what: "a header column named '_' indexed an empty split (crash)", input: "_",
            error: "trace.csv:1: unknown column '_'; the header names time_s|time_ms or duration_s|duration_ms, "
                + "bandwidth_bps|bandwidth_kbps|bandwidth_mbps and optionally latency_s|latency_ms"
        ),
        Finding(
            entry: .traceAuto, what: "the same crash through format detection", input: "_,db\\\n",
            error: "trace:1: unknown column '_'; the header names time_s|time_ms or duration_s|duration_ms, "
                + "bandwidth_bps|bandwidth_kbps|bandwidth_mbps and optionally latency_s|latency_ms"
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
    ]

    @Test(arguments: findings) func findingGetsOneLineError(_ finding: Finding) {
        #expect(throws: InputError.self) { try finding.entry.parse(finding.input) }
        do throws(InputError) {
            try finding.entry.parse(finding.input)
        } catch {
            #expect(error.description == finding.error)
            #expect(!error.description.contains { $0.isNewline })
        }
    }
}
