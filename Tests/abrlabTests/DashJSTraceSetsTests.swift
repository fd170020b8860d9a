import Foundation
import Testing
import TestSupport

/// Every dash.js rule set under `--profile dashjs` over whole trace sets, each session played to its end: the
/// shipped sets with the default video, and Sabre's 3G and 4G sets with `movie.json`; and the shipped sets played
/// live at low latency. Each run's records go
/// through dash.js's own code (`DashJSRecordsCheck`), a few traces at a time so the records (about 19 MB a
/// trace with the default video, 47 MB with `movie.json`) never pile up.
///
/// Sabre's sets hold 86 and 40 traces; the suite plays the first `ABRLAB_DASHJS_SABRE_TRACES` of each
/// (default 4; `all` for every one, as docs/dashjs.md's figure was made).
@Suite(.tags(.cli, .reference, .scale), .selectedByTags, .enabled(if: DashJSReference.isAvailable, DashJSReference.skipMessage))
struct DashJSTraceSetsTests {
    static let shippedSets = ["3g", "4g", "broadband", "default", "lossy", "twitch-ll"]
    static let sabreSets = ["3Glogs", "4Glogs"]
    static let tracesAtATime = 4

    @Test(arguments: shippedSets) func everyDecisionOnAShippedSetEqualsDashJS(set: String) throws {
        let folder = CLI.packageRoot.appendingPathComponent("Traces/\(set)")
        try check(set, traces: Self.traces(in: folder), video: nil)
    }

    /// The same sets played live at low latency (`--profile live`, the Twitch challenge's ladder): every decision and
    /// every catch-up rate.
    @Test(arguments: shippedSets) func everyLiveDecisionAndRateOnAShippedSetEqualsDashJS(set: String) throws {
        let folder = CLI.packageRoot.appendingPathComponent("Traces/\(set)")
        try check("\(set) live", traces: Self.traces(in: folder), video: "twitch-ll", profile: "live")
    }

    @Test(.needsDatasets("sabre/mmsys18"), arguments: sabreSets)
    func everyDecisionOnASabreSetWithItsMovieEqualsDashJS(set: String) throws {
        let all = try Self.traces(in: Datasets.url("sabre/mmsys18/\(set)"))
        let limit = ProcessInfo.processInfo.environment["ABRLAB_DASHJS_SABRE_TRACES"] ?? "4"
        let traces = limit == "all" ? all : Array(all.prefix(Int(limit) ?? 4))
        try check("sabre \(set)", traces: traces, video: Datasets.url("sabre/movie.json").path)
    }

    /// The set's traces: the shipped sets' CSVs, Sabre's JSON logs (not the READMEs beside them).
    private static func traces(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".json") }
            .sorted().map { folder.appendingPathComponent($0).path }
    }

    private func check(_ label: String, traces: [String], video: String?, profile: String = "dashjs") throws {
        try #require(!traces.isEmpty, "\(label): no traces")
        var check = DashJSRecordsCheck()
        for start in stride(from: 0, to: traces.count, by: Self.tracesAtATime) {
            let fixture = try FixtureDirectory()
            let out = fixture.url.appendingPathComponent("out")
            let chunk = Array(traces[start ..< min(start + Self.tracesAtATime, traces.count)])
            let run = try CLI.run(["compare", "--profile", profile, "--strategies"] + DashJSRecordsTests.ruleSets
                + ["--traces"] + chunk + (video.map { ["--video", $0] } ?? []) + ["--dashjs-records", "--out", out.path, "--quiet"])
            try #require(run.status == 0, "\(label): \(run.stderr)")
            try check.check(out.appendingPathComponent("dashjs-records.jsonl"))
        }
        print("dashjs on \(label), \(traces.count) traces: \(check.summary)")
        check.expectAllEqual(label)
        for ruleSet in DashJSRecordsTests.ruleSets { #expect(check.decisions[ruleSet, default: 0] > 0, "\(label): \(ruleSet) never decided") }
    }
}
