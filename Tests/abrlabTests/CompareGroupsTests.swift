import Foundation
import Testing
import TestSupport

/// `compare --players N`: groups of players on each trace's link, byte-identical across
/// `--jobs`, shards and merges; `--players 1` is the single run; `--share weighted` with equal
/// weights is the equal share; bad grouping input is one line and no output.
@Suite(.tags(.cli), .selectedByTags) struct CompareGroupsTests {
    static let run = [
        "compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default", "--video", "Traces/video.json", "--quiet",
    ]

    static func files(_ folder: URL) throws -> [String: Data] {
        try MergeTests.files(folder).filter { $0.key != "run.json" }
    }

    @Test(arguments: ["default", "sabre"])
    func onePlayerIsTheSingleRunByteForByte(profile: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("alone")
        let one = folder.appendingPathComponent("one")
        #expect(try CLI.run(Self.run + ["--profile", profile, "--out", alone.path]).status == 0)
        let result = try CLI.run(Self.run + ["--profile", profile, "--players", "1", "--out", one.path])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Self.files(alone)
        #expect(try Self.files(one) == expected)
        #expect(expected["groups.csv"] == nil)
    }

    @Test(arguments: ["default", "sabre"])
    func groupsAreTheSameWhateverTheJobCount(profile: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [[String: Data]] = []
        for jobs in ["1", "3"] {
            let out = folder.appendingPathComponent("jobs\(jobs)")
            let result = try CLI.run(Self.run + ["--profile", profile, "--players", "3", "--stagger-s", "1.5", "--jobs", jobs, "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Self.files(out))
        }
        #expect(outputs[0] == outputs[1])
        let groups = String(decoding: try #require(outputs[0]["groups.csv"]), as: UTF8.self).split(separator: "\n")
        let sessions = String(decoding: try #require(outputs[0]["sessions.csv"]), as: UTF8.self).split(separator: "\n")
        #expect(groups.first == "group,strategy,trace,players,stagger_s,finished,jain,unfairness,inefficiency,instability,qoe_fairness_f,utilisation,overlap_s,error")
        #expect(sessions.first?.hasPrefix("strategy,trace,group,player,profile,") == true)
        // 12 traces × 2 strategy rows, 3 players each.
        #expect(groups.count == 1 + 24)
        #expect(sessions.count == 1 + 72)
        #expect(sessions[1].hasPrefix("conservative,") && sessions[1].contains(",1,1,\(profile),"))
        #expect(sessions[3].contains(",1,3,\(profile),"))
        #expect(sessions[4].hasPrefix("bba-native,") && sessions[4].contains(",2,1,\(profile),"))
    }

    @Test func aMixSeatsItsStrategiesInTurn() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--players", "4", "--traces", "Traces/default", "--video", "Traces/video.json",
            "--quiet", "--out", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let sessions = try CLI.read(folder.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        #expect(sessions.count == 12 * 4)
        #expect(sessions.prefix(4).map { $0.split(separator: ",")[0] } == ["conservative", "bba-native", "conservative", "bba-native"])
        let groups = try CLI.read(folder.appendingPathComponent("groups.csv")).split(separator: "\n")
        #expect(groups.count == 1 + 12)
        #expect(groups[1].hasPrefix("1,conservative+bba-native,"))
    }

    /// Every per-session file names each row's group and seat after its strategy and trace, and
    /// a seat's rows in every file are those of the session that sat there.
    @Test func everyPerSessionFileNamesTheGroupAndPlayerOfEachRow() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--players", "3", "--stagger-s", "2", "--traces", "Traces/default/3g_1.csv",
            "Traces/default/4g_1.csv", "--video", "audio", "--buffer-timeline", "--quiet", "--out", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        /// The (strategy, trace, group, player) of every row of `name`.
        func seats(_ name: String) throws -> [[Substring]] {
            let lines = try CLI.read(folder.appendingPathComponent(name)).split(separator: "\n")
            #expect(lines.first?.hasPrefix("strategy,trace,group,player,") == true, "header of \(name)")
            return lines.dropFirst().map { Array($0.split(separator: ",", omittingEmptySubsequences: false).prefix(4)) }
        }
        let sessions = try seats("sessions.csv")
        // Two traces, one group each; seats 1 and 3 play conservative, seat 2 bba-native.
        #expect(sessions.map { $0.joined(separator: ",") } == [
            "conservative,3g_1,1,1", "bba-native,3g_1,1,2", "conservative,3g_1,1,3",
            "conservative,4g_1,2,1", "bba-native,4g_1,2,2", "conservative,4g_1,2,3",
        ])
        for name in ["segments.csv", "transitions.csv", "formats.csv", "buffer_timeline.csv"] {
            let rows = try seats(name)
            // Each session's rows are together, in seat order, and name the session's own seat.
            var seen: [[Substring]] = []
            for row in rows where seen.last != row { seen.append(row) }
            #expect(seen == sessions, "seats of \(name)")
        }
    }

    /// Equal weights divide the link as `--share equal` does, to the byte; unequal ones give
    /// other sessions; run.json records how the link was shared.
    @Test(arguments: ["default", "sabre"])
    func equalWeightsAreTheEqualShareByteForByte(profile: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grouped = Self.run + ["--profile", profile, "--players", "3", "--stagger-s", "2"]
        var outputs: [String: [String: Data]] = [:]
        for (name, share) in [("plain", []), ("equal", ["--share", "equal"]), ("same", ["--share", "weighted", "--weights", "0.7,0.7"]),
                              ("unequal", ["--share", "weighted", "--weights", "1,3"])] {
            let out = folder.appendingPathComponent(name)
            let result = try CLI.run(grouped + share + ["--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            outputs[name] = try Self.files(out)
        }
        #expect(outputs["equal"] == outputs["plain"])
        #expect(outputs["same"] == outputs["plain"])
        #expect(outputs["unequal"]?["sessions.csv"] != outputs["plain"]?["sessions.csv"])
        let recorded = try MergeTests.plan(try Data(contentsOf: folder.appendingPathComponent("unequal/run.json")))
        #expect(recorded["shared_link"] as? NSDictionary == ["players": 3, "stagger_s": 2, "share": "weighted", "weights": [1, 3]])
        let plain = try MergeTests.plan(try Data(contentsOf: folder.appendingPathComponent("plain/run.json")))
        #expect(plain["shared_link"] as? NSDictionary == ["players": 3, "stagger_s": 2, "share": "equal"])
        #expect(plain["fingerprint"] as? String != recorded["fingerprint"] as? String)
    }

    @Test func aMixsSharedLinkIsRecordedSeatBySeat() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--players", "4", "--share", "weighted", "--weights", "2,1", "--traces",
            "Traces/default/3g_1.csv", "--quiet", "--out", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let recorded = try MergeTests.plan(try Data(contentsOf: folder.appendingPathComponent("run.json")))
        #expect(recorded["shared_link"] as? NSDictionary == [
            "players": 4, "stagger_s": 0, "mix": ["conservative", "bba-native"], "share": "weighted", "weights": [2, 1],
        ])
        let alone = folder.appendingPathComponent("alone")
        #expect(try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--quiet", "--out", alone.path]).status == 0)
        #expect(try MergeTests.plan(try Data(contentsOf: alone.appendingPathComponent("run.json")))["shared_link"] == nil)
    }

    @Test func shardsOfAnotherShareAreNotMerged() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shards = try [["1,3"], ["1,2"]].enumerated().map { index, weights in
            let out = folder.appendingPathComponent("shard-\(index)").path
            let result = try CLI.run(Self.run + ["--players", "2", "--share", "weighted", "--weights"] + weights + ["--shard", "\(index)/2", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            return out
        }
        let merged = folder.appendingPathComponent("merged")
        let result = try CLI.run(["merge"] + shards + ["--out", merged.path])
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("abrlab: \(shards[1])") && result.stderr.contains("belongs to a different plan"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: merged.path))
    }

    @Test func shardsOfGroupsMergeIntoTheWholeRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The audio preset carries formats: every per-session file, each with its seat columns.
        let grouped = Self.run.map { $0 == "Traces/video.json" ? "audio" : $0 } + ["--players", "2", "--stagger-s", "3", "--buffer-timeline"]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(grouped + ["--out", whole.path]).status == 0)
        let shards = try (0..<3).map { index in
            let out = folder.appendingPathComponent("shard-\(index)").path
            let result = try CLI.run(grouped + ["--shard", "\(index)/3", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            return out
        }
        let merged = folder.appendingPathComponent("merged")
        let result = try CLI.run(["merge"] + shards + ["--out", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try Self.files(merged)
        #expect(files == (try Self.files(whole)))
        #expect(files.keys.sorted() == ["buffer_timeline.csv", "formats.csv", "groups.csv", "ranked.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }

    @Test func aGroupedRunKilledHalfwayAndResumedEqualsAnUninterruptedOne() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = try CLI.generatedTraces(in: folder)
        let run = [
            "compare", "--strategies", "Strategies/robust_mpc.lua", "Strategies/bola.lua", "--traces", traces.path,
            "--players", "4", "--stagger-s", "2", "--profile", "sabre", "--quiet", "--jobs", "1", "--video", "audio", "--buffer-timeline",
        ]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["--out", whole.path]).status == 0)
        let killed = folder.appendingPathComponent("killed")
        try CompareResumeTests.killedRun(run, out: killed, records: 6)
        let resumed = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.files(killed) == (try Self.files(whole)))
    }

    @Test func aWeightedRunResumesOnlyWithItsOwnWeights() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = try CLI.generatedTraces(in: folder)
        let run = [
            "compare", "--strategies", "Strategies/bola.lua", "--traces", traces.path, "--video", "Traces/video.json",
            "--players", "3", "--share", "weighted", "--quiet", "--jobs", "1", "--weights",
        ]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["1,3", "--out", whole.path]).status == 0)
        let killed = folder.appendingPathComponent("killed")
        try CompareResumeTests.killedRun(run + ["1,3"], out: killed, records: 4)
        let other = try CLI.run(run + ["1,2", "--out", killed.path, "--resume"])
        #expect(other.status != 0)
        #expect(other.stderr.hasSuffix("holds an interrupted run of a different plan or shard; remove it or run without --resume\n"), "\(other.stderr)")
        let resumed = try CLI.run(run + ["1,3", "--out", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.files(killed) == (try Self.files(whole)))
    }

    @Test(arguments: [
        (["--players", "0"], "abrlab: --players: must be from 1 to 1024\n"),
        (["--players", "2", "--stagger-s", "-1"], "abrlab: --stagger-s: must be a number of seconds ≥ 0\n"),
        (["--players", "2", "--stagger-s", "nan"], "abrlab: --stagger-s: must be a number of seconds ≥ 0\n"),
        (["--stagger-s", "2"], "abrlab: --stagger-s: staggers the players of a group; give --players or --mix\n"),
        (["--players", "2", "--profile", "pensieve"], "abrlab: --players: profile pensieve adds each request's latency without moving the trace, so its players keep no common clock on a shared link; use --profile default or sabre\n"),
        (["--players", "1", "--profile", "live"], "abrlab: --players: profile live paces each player by its own live edge and chunked transfers, which the shared link does not model; use --profile default or sabre\n"),
        (["--share", "weighted", "--weights", "1,3"], "abrlab: --share: divides the link among a group's players; give --players or --mix\n"),
        (["--weights", "1,3"], "abrlab: --weights: divides the link among a group's players; give --players or --mix\n"),
        (["--players", "2", "--weights", "1,3"], "abrlab: --weights/--share: weights the players' shares of the link; give --share weighted\n"),
        (["--players", "2", "--share", "equal", "--weights", "1,3"], "abrlab: --weights/--share: weights the players' shares of the link; give --share weighted\n"),
        (["--players", "2", "--share", "weighted"], "abrlab: --share/--weights: weighted sharing needs --weights: a positive weight for each player, comma-separated\n"),
        (["--players", "2", "--share", "fair"], "abrlab: --share: 'fair' is not one of equal, weighted\n"),
        (["--players", "2", "--share", "weighted", "--weights", "1,0"], "abrlab: --weights: each weight must be a positive finite number, not 0\n"),
        (["--players", "2", "--share", "weighted", "--weights", "-2"], "abrlab: --weights: each weight must be a positive finite number, not -2\n"),
        (["--players", "2", "--share", "weighted", "--weights", "nan"], "abrlab: --weights: each weight must be a positive finite number, not NaN\n"),
        (["--players", "2", "--share", "weighted", "--weights", "1,inf"], "abrlab: --weights: each weight must be a positive finite number, not inf\n"),
        (["--players", "2", "--share", "weighted", "--weights", ""], "abrlab: --weights: '' names an empty weight; list positive weights separated by commas\n"),
        (["--players", "2", "--share", "weighted", "--weights", "1,,3"], "abrlab: --weights: '1,,3' names an empty weight; list positive weights separated by commas\n"),
        (["--players", "2", "--share", "weighted", "--weights", "1,heavy"], "abrlab: --weights: 'heavy' is not a number; list positive weights separated by commas\n"),
        (["--players", "2", "--share", "weighted", "--weights", "1,2,3"], "abrlab: --weights/--players: --weights gives 3 weights for 2 players\n"),
        // Their ratio or their sum overflowed, and every session then failed blaming the trace.
        (["--players", "2", "--share", "weighted", "--weights", "1e-160,1e160"],
         "abrlab: --weights: the largest weight may be at most 1000000 times the smallest, not 1e+160 against 1e-160\n"),
        (["--players", "4", "--share", "weighted", "--weights", "1,1e308"],
         "abrlab: --weights: the largest weight may be at most 1000000 times the smallest, not 1e+308 against 1\n"),
    ])
    func badGroupingIsOneLineAndNoOutput(extra: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(Self.run + extra + ["--out", out.path])
        #expect(result.status != 0)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }

    /// Players that never play at the same time are a valid group (the case crashed with
    /// `Range requires lowerBound <= upperBound`): overlap 0, inefficiency and instability empty.
    @Test(arguments: [["--players", "2", "--stagger-s", "300"], ["--players", "3", "--stagger-s", "43200"]])
    func playersThatNeverOverlapAreAGroupWithoutOverlap(grouping: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--strategies", "bba", "--traces", "Traces/3g/3g_1.csv", "--quiet", "--out", out.path] + grouping)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CLI.read(out.appendingPathComponent("groups.csv")).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        let row = try #require(rows.dropFirst().first)
        func cell(_ name: String) throws -> String { row[try #require(header.firstIndex(of: name))] }
        #expect(try cell("overlap_s") == "0")
        #expect(try cell("inefficiency").isEmpty)
        #expect(try cell("instability").isEmpty)
        #expect(try cell("error").isEmpty)
        #expect(try cell("finished") == grouping[1])
    }

    /// A group has one session's steps in all: on a trace of 1 ns periods 32 players used to take
    /// 88 s before each hit its own limit; now the group stops at its shared limit, each row
    /// naming it.
    @Test(.tags(.scale)) func aGroupOnATraceOfNanosecondPeriodsStopsAtTheGroupsStepLimit() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("ns.csv")
        try ("end_s,bandwidth_bps\n" + (1...20_000).map { "\(Double($0) * 1e-9),1000000\n" }.joined()).write(to: trace, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try CLI.runTool("/usr/bin/timeout", ["120", CLI.binary.path,
            "compare", "--strategies", "bba", "--traces", trace.path, "--players", "32", "--quiet", "--out", out.path,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        #expect(sessions.count == 32)
        #expect(sessions.allSatisfy {
            $0.contains("ns: the group of 32 players took more than its limit of 100000000 steps in all (3125000 per player: ")
        })
    }

    @Test func moreWeightsThanAMixSeatsIsOneLineAndNoOutput() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--share", "weighted", "--weights", "1,2,3", "--traces", "Traces/default",
            "--video", "Traces/video.json", "--out", out.path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr == "abrlab: --weights/--players: --weights gives 3 weights for 2 players\n")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }

    @Test func aBaselineOutsideTheMixIsOneLineAndNoOutput() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run([
            "compare", "--mix", "conservative,bba-native", "--baseline", "bola", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", out.path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr == "abrlab: --baseline/--mix: the baseline 'bola' takes no seat; name one of the strategies of --mix\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aMixOfAnUnknownStrategyIsOneLineAndNoOutput() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--mix", "conservative,no-such-rule", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", out.path])
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("abrlab: ") && result.stderr.contains("no-such-rule"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }
}
