import Foundation
import Testing
import TestSupport

/// Every numeric option's range is checked before work starts, and options that would change
/// nothing are refused: one line, a non-zero exit, nothing written. Before, the generators
/// trapped (`--segment-duration-s 1e308`), climbed past 3 GB (`--segments 1000000000`) or hung
/// (`--outage-mean-s 1e308`), and `--seed -1` was answered "Missing value".
@Suite(.tags(.cli), .selectedByTags) struct OptionRangeTests {
    static let compare = ["compare", "--strategies", "conservative", "--traces", "Traces/3g/3g_1.csv", "--out", "OUT/results", "--quiet"]
    static let run = ["run", "--trace", "Traces/3g/3g_1.csv"]
    static let videos = ["videos", "generate", "--out", "OUT/video.json"]
    static let traces = ["traces", "generate", "--out-dir", "OUT/traces"]

    static let cases: [(arguments: [String], message: String)] = [
        // Generators.
        (videos + ["--segment-duration-s", "1e308"], "--segment-duration-s: must be a positive number of seconds, at most 86400"),
        (videos + ["--segments", "1000000000"], "--segments: must be from 1 to 10000000"),
        (videos + ["--segments", "-3"], "--segments: must be from 1 to 10000000"),
        (videos + ["--segments", "2000000"], "--segments: must be from 1 to 1666666 (10000000 segment sizes over 6 levels)"),
        (videos + ["--complexity-spread", "1e308"], "--complexity-spread: must be from 0 to 2"),
        (videos + ["--level-noise", "nan"], "--level-noise: must be from 0 to 2"),
        (videos + ["--ladder-kbps", "300,inf"], "--ladder-kbps: takes a list of numbers, not '300,inf'"),
        (videos + ["--seed", "-1"], "--seed: takes an integer from 0 to 2^64 - 1, not '-1'"),
        (
            videos + ["--ladder-kbps", "1000000000", "--segment-duration-s", "86400"],
            "--segment-duration-s: segment 1 at 1000000000 kbps would be over 1 PB; use shorter segments or lower bitrates"
        ),
        (traces + ["--outage-mean-s", "1e308"], "--outage-mean-s: must be positive and at most 10 million steps (--step-s)"),
        (traces + ["--count", "1000000000"], "--count: must be from 1 to 100000"),
        (traces + ["--count", "-1"], "--count: must be from 1 to 100000"),
        (traces + ["--duration-s", "1e308"], "--duration-s: must be a positive number of seconds, at most 86400"),
        (traces + ["--step-s", "1e-9"], "--step-s: must be at least 0.001 s and at most the duration"),
        (traces + ["--latency-ms", "1e300"], "--latency-ms: must be from 0 to 60000 ms"),
        (traces + ["--latency-jitter-ms", "inf"], "--latency-jitter-ms: must be from 0 to 60000 ms"),
        (traces + ["--max-kbps", "inf"], "--max-kbps: must be a positive number of kbps"),
        (traces + ["--max-kbps", "2e9"], "--min-kbps/--max-kbps: need 0 < min ≤ max ≤ 1e9 kbps"),
        (traces + ["--seed", "-1"], "--seed: takes an integer from 0 to 2^64 - 1, not '-1'"),
        // compare and run.
        (compare + ["--seed", "-1"], "--seed: takes an integer from 0 to 2^64 - 1, not '-1'"),
        (compare + ["--jobs", "-2"], "--jobs: must be from 1 to 1024"),
        (compare + ["--jobs", "100000"], "--jobs: must be from 1 to 1024"),
        (compare + ["--jobs", "four"], "--jobs: takes an integer, not 'four'"),
        (compare + ["--stagger-s", "soon"], "--stagger-s: takes a number, not 'soon'"),
        (["reproduce", "sabre", "--jobs", "0"], "--jobs: must be from 1 to 1024"),
        (compare + ["--checkpoint-s", "1e308"], "--checkpoint-s: must be a number of seconds from 0 to 86400"),
        (compare + ["--shard", "0/1000000000000"], "--shard: the shard count must be from 1 to 100000, not 1000000000000"),
        (compare + ["--segments", "1000000000"], "--segments: must be from 1 to 10000000"),
        (compare + ["--max-buffer-s", "1e300"], "--max-buffer-s: must be a positive number of seconds, at most 86400"),
        (compare + ["--max-buffer-s", "-1"], "--max-buffer-s: must be a positive number of seconds, at most 86400"),
        (compare + ["--segment-duration-s", "1e308"], "--segment-duration-s: must be a positive number of seconds, at most 86400"),
        (compare + ["--profile", "live", "--target-latency-s", "1e300"], "--target-latency-s: must be a positive number of seconds, at most 86400"),
        (compare + ["--rebuffer-penalty", "nan"], "--rebuffer-penalty: must be a number ≥ 0"),
        (compare + ["--smoothness-penalty", "-1"], "--smoothness-penalty: must be a number ≥ 0"),
        (compare + ["--lua-memory-mb", "99999999999"], "--lua-memory-mb: must be from 1 to 1048576 MiB"),
        (run + ["--max-buffer-s", "inf"], "--max-buffer-s: must be a positive number of seconds, at most 86400"),
        (["diff", "OUT", "OUT", "--tolerance", "nan"], "--tolerance: must be a number ≥ 0"),
        (["replay", "--trace", "Traces/3g/3g_1.csv", "--speed", "inf"], "--speed: must be a positive number"),
        // An empty path used to be read as the working folder ('.: no such file or folder').
        (["compare", "--strategies", "conservative", "--traces", "", "--out", "OUT/results", "--quiet"], "--traces: an empty path names no trace file or folder"),
        // Values the script sees as one ran as two rows of identical sessions; hexadecimal was taken.
        (bola + ["--param", "bola.gp=3,03"], "--param: bola[gp=3] and bola[gp=03] give bola the same values; list each value once"),
        (bola + ["--param", "bola.gp=10,1e1"], "--param: bola[gp=10] and bola[gp=1e1] give bola the same values; list each value once"),
        (bola + ["--param", "bola.gp=5,5.0"], "--param: bola[gp=5] and bola[gp=5.0] give bola the same values; list each value once"),
        (bola + ["--param", "bola.gp=0x10"], "Strategies/bola.lua: parameter bola.gp needs a number, not '0x10'"),
        (bola + ["--param", "bola.gp=inf"], "Strategies/bola.lua: parameter bola.gp needs a number, not 'inf'"),
        (["compare", "--strategies", "bba-native", "--traces", "Traces/3g/3g_1.csv", "--out", "OUT/results", "--quiet", "--param", "bba-native.reservoir_s=1e1,10"], "--param: bba-native[reservoir_s=1e1] and bba-native[reservoir_s=10] give bba-native the same values; list each value once"),
    ]

    static let bola = ["compare", "--strategies", "Strategies/bola.lua", "--traces", "Traces/3g/3g_1.csv", "--out", "OUT/results", "--quiet"]

    /// Options that mean nothing where they are given, and an option given twice.
    static let meaningless: [(arguments: [String], message: String)] = [
        (compare + ["--no-abandon"], "--no-abandon: works on profiles with a segment buffer (sabre) only, not on default"),
        (compare + ["--profile", "pensieve", "--no-abandon"], "--no-abandon: works on profiles with a segment buffer (sabre) only, not on pensieve"),
        (compare + ["--check-every-step"], "--check-every-step: works on profiles with a segment buffer (sabre) only, not on default"),
        (compare + ["--profile", "live", "--check-every-step"], "--check-every-step: works on profiles with a segment buffer (sabre) only, not on live"),
        (compare + ["--profile", "sabre", "--no-abandon", "--check-every-step"], "--check-every-step: calls abandonment checks, which --no-abandon turns off"),
        (run + ["--no-abandon"], "--no-abandon: works on profiles with a segment buffer (sabre) only, not on default"),
        (compare + ["--segments", "20", "--segments", "30"], "--segments: is given more than once; it keeps one value, so give it once"),
        (compare + ["--segments", "csv.gz"], "--segments: takes an integer, not 'csv.gz'; the format of segments.csv is --segments-format csv.gz"),
        (compare + ["--profile", "sabre", "--profile=live"], "--profile: is given more than once; it keeps one value, so give it once"),
        (traces + ["--outage-mean-s", "2", "--outage-mean-s", "3"], "--outage-mean-s: is given more than once; it keeps one value, so give it once"),
    ]

    static func expectRefused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let resolved = arguments.map { $0.replacingOccurrences(of: "OUT", with: folder.path) }
        // Under `timeout`, so an option that hangs fails the test instead of stalling the suite.
        let result = try CLI.runTool("/usr/bin/timeout", ["30", CLI.binary.path] + resolved)
        #expect(result.status != 0 && result.status != 124, sourceLocation: sourceLocation)
        #expect(result.stderr == "abrlab: \(message)\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "something was written", sourceLocation: sourceLocation)
    }

    @Test(arguments: cases.indices)
    func outOfRangeValuesAreRefusedBeforeWorkStarts(index: Int) throws {
        try Self.expectRefused(Self.cases[index].arguments, Self.cases[index].message)
    }

    @Test(arguments: meaningless.indices)
    func optionsThatWouldChangeNothingAreRefused(index: Int) throws {
        try Self.expectRefused(Self.meaningless[index].arguments, Self.meaningless[index].message)
    }

    /// Options that collect values may repeat, and a flag given twice is still the flag.
    @Test func repeatableOptionsStillRepeat() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "--strategies", "bba", "--traces", "Traces/3g/3g_1.csv", "--traces", "Traces/3g/3g_2.csv",
            "--param", "bba.reservoir_s=5", "--param", "bba.cushion_s=20", "--quiet", "--quiet", "--out", folder.appendingPathComponent("r").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLI.read(folder.appendingPathComponent("r/sessions.csv")).split(separator: "\n").count == 5)
    }

    /// A negative value reaches the option's own check instead of being read as an option.
    @Test func aNegativeNumberIsAValue() throws {
        let result = try CLI.run(["traces", "generate", "--out-dir", "/nonexistent/never", "--latency-ms", "-5"])
        #expect(result.stderr == "abrlab: --latency-ms: must be from 0 to 60000 ms\n")
        let usage = try CLI.run(["compare", "--frobnicate"])
        #expect(usage.status == 64)
        #expect(usage.stderr.split(separator: "\n").count == 1)
    }
}
