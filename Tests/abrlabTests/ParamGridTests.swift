import Foundation
import Testing
import TestSupport

/// `--param-grid FILE`: settings listed row by row, run as rows like `--param` sweeps, errors
/// at file:line, and shards of a grid plan merge like any other.
@Suite(.tags(.cli), .selectedByTags) struct ParamGridTests {
    static let base = ["compare", "--traces", "Traces/default/4g_1.csv", "Traces/default/3g_1.csv", "--video", "Traces/video.json", "--quiet"]

    static func write(_ text: String, in folder: URL, name: String = "grid.csv") throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func strategyIDs(_ out: URL) throws -> [String] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        return (manifest?["strategies"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" }
    }

    @Test func rowsRunInFileOrderNamedByTheKeysThatVaryAndCombineWithParamSweeps() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grid = try Self.write("""
            # coupled BOLA settings, then two BBA ones
            bola.gp, bola.capacity_s ,bba.reservoir_s,bba.cushion_s

            8,30,,
            3,20,,
            ,,"5",10
            ,,7.5,10
            """, in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(Self.base + [
            "--strategies", "Strategies/bola.lua", "Strategies/bba.lua", "--param-grid", grid, "--param", "bba.first_level=1,3",
            "--baseline", "bola[capacity_s=30,gp=8]", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // bola: both keys vary; bba: reservoir_s varies (cushion_s does not), first_level is swept by --param, fastest.
        #expect(try Self.strategyIDs(out) == [
            "bola[capacity_s=30,gp=8]", "bola[capacity_s=20,gp=3]",
            "bba[first_level=1,reservoir_s=5]", "bba[first_level=3,reservoir_s=5]",
            "bba[first_level=1,reservoir_s=7.5]", "bba[first_level=3,reservoir_s=7.5]",
        ])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let strategies = manifest?["strategies"] as? [[String: Any]] ?? []
        let params = (strategies.last?["params"] as? [[String: Any]] ?? []).reduce(into: [String: Double]()) { values, param in
            values[param["key"] as? String ?? ""] = (param["value"] as? NSNumber)?.doubleValue
        }
        #expect(params == ["reservoir_s": 7.5, "cushion_s": 10, "first_level": 3])
    }

    @Test func aGridOfTheProductEqualsTheParamSweepByteForByte() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grid = try Self.write("bola.capacity_s,bola.gp\n0,3\n0,8\n20,3\n20,8\n", in: folder)
        let run = Self.base + ["--strategies", "Strategies/bola.lua", "conservative"]
        let swept = folder.appendingPathComponent("swept")
        let listed = folder.appendingPathComponent("listed")
        #expect(try CLI.run(run + ["--param", "bola.gp=3,8", "--param", "bola.capacity_s=0,20", "--out", swept.path]).status == 0)
        #expect(try CLI.run(run + ["--param-grid", grid, "--out", listed.path]).status == 0)
        for name in ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv", "ranked.json"] {
            #expect(try Data(contentsOf: listed.appendingPathComponent(name)) == Data(contentsOf: swept.appendingPathComponent(name)), "\(name) differs")
        }
    }

    @Test func aGridPlanShardsAndMergesAndAnotherGridIsAnotherPlan() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grid = try Self.write("bola.gp\n3\n5\n8\n", in: folder)
        let other = try Self.write("bola.gp\n3\n5\n9\n", in: folder, name: "other.csv")
        let run = ["compare", "--strategies", "Strategies/bola.lua", "conservative", "--traces", "Traces/default", "--video", "Traces/video.json", "--quiet"]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["--param-grid", grid, "--out", whole.path]).status == 0)
        var shards: [String] = []
        for index in 0..<3 {
            let out = folder.appendingPathComponent("shard-\(index)").path
            let result = try CLI.run(run + ["--param-grid", grid, "--shard", "\(index)/3", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            shards.append(out)
        }
        let merged = folder.appendingPathComponent("merged")
        #expect(try CLI.run(["merge"] + shards + ["--out", merged.path, "--quiet"]).status == 0)
        for name in ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv", "ranked.json"] {
            #expect(try Data(contentsOf: merged.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name) differs")
        }
        let foreign = folder.appendingPathComponent("foreign").path
        #expect(try CLI.run(run + ["--param-grid", other, "--shard", "2/3", "--out", foreign]).status == 0)
        let refused = try CLI.run(["merge", shards[0], shards[1], foreign, "--out", folder.appendingPathComponent("mixed").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("belongs to a different plan"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("mixed").path))
    }

    @Test(arguments: [
        ("", [String](), "grid.csv: has no header line (id.key columns)"),
        ("# only a comment\nbola.gp\n", [], "grid.csv: lists no settings under its header"),
        ("bola.gp,gp\n3,4\n", [], "grid.csv:1: column 'gp' is not of the form id.key"),
        ("bola.gp,bola.gp\n3,4\n", [], "grid.csv:1: column 'bola.gp' appears twice"),
        ("bola.gp\n3\n\n5,6\n", [], "grid.csv:4: has 2 fields, the header 1"),
        ("bola.gp,bola.capacity_s\n3,10\n5,\n", [], "grid.csv:3: sets bola.gp but not bola.capacity_s; fill all of bola's columns or none"),
        ("bola.gp\n3\n5\n3\n", [], "grid.csv:4: repeats the bola setting of line 2"),
        ("bola.gp\n3\n\"5\n", [], "grid.csv:3: a quoted field is not closed"),
        ("bola.gp,bba.cushion_s\n3,\n,\n", [], "grid.csv:3: sets no parameter"),
        ("bola.gp\n3\nfast\n", [], "grid.csv:3: "),
        ("bola.gp,bola.nope\n3,1\n", [], "grid.csv:2: unknown parameter 'nope'"),
        ("robust_mpc.horizon\n3\n", [], "grid.csv: no strategy with id 'robust_mpc' is being run"),
        ("bola.gp\n3\n5\n", ["--param", "bola.gp=8"], "grid.csv: bola.gp is also set by --param; set it in one place"),
    ] as [(String, [String], String)])
    func badGridsGetOneLineNamingTheFileAndNoOutput(text: String, extra: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grid = try Self.write(text, in: folder)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(Self.base + ["--strategies", "Strategies/bola.lua", "--param-grid", grid, "--out", out.path] + extra)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("abrlab: " + message.replacingOccurrences(of: "grid.csv", with: grid)), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aMissingGridFileIsNamed() throws {
        let result = try CLI.run(Self.base + ["--strategies", "Strategies/bola.lua", "--param-grid", "no/such/grid.csv", "--out", "/nonexistent/x"])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: no/such/grid.csv: no such file\n")
    }

    /// A grid saved by a spreadsheet (byte order mark, CRLF, quoted cells) runs as the plain file does.
    /// The cap on settings is checked from a scan of the file's lines before any is parsed: a
    /// grid past it is refused at the line that passes it, not after parsing its lines (36 s for
    /// a million), and a malformed line before that point is never reached.
    @Test func aGridPastTheCapIsRefusedBeforeAnyLineIsParsed() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (1...100_001).map { $0 == 50 ? "1,2,3\n" : "\($0)\n" }.joined()
        let grid = try Self.write("# a comment\nbola.gp\n\n" + rows, in: folder)
        let result = try CLI.run(Self.base + ["--strategies", "Strategies/bola.lua", "--param-grid", grid, "--out", folder.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(grid):100004: passes 100000 settings, the most one run holds; split the grid into several runs\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// A value whose bytes are not UTF-8 reached its script as U+FFFD; now the file is refused
    /// naming its line.
    @Test func aGridThatIsNotUTF8IsRefusedNamingTheLine() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("grid.csv")
        try Data(Array("bba.label\nplain\n".utf8) + [0xFF, 0xFE, 0x0A]).write(to: url)
        let result = try CLI.run(Self.base + ["--strategies", "Strategies/bba.lua", "--param-grid", url.path, "--out", folder.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(url.path):3: is not UTF-8 text; parameter values reach their scripts unchanged, so write the file as UTF-8\n")
    }

    @Test func aGridWithAByteOrderMarkAndCRLFRunsLikeThePlainFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = "bola.gp,bola.capacity_s\n3,20\n8,30\n"
        let saved = "\u{FEFF}bola.gp,bola.capacity_s\r\n\"3\",20\r\n8,\"30\"\r\n"
        var outputs: [[String: Data]] = []
        for (name, text) in [("plain.csv", plain), ("saved.csv", saved)] {
            let out = folder.appendingPathComponent(name + ".out")
            let result = try CLI.run(Self.base + ["--strategies", "Strategies/bola.lua", "--param-grid", try Self.write(text, in: folder, name: name), "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.strategyIDs(out) == ["bola[capacity_s=20,gp=3]", "bola[capacity_s=30,gp=8]"])
            outputs.append(try MergeTests.files(out).filter { $0.key != "run.json" })
        }
        #expect(outputs[0] == outputs[1])
    }

    /// Row names built from values that hold `,` or `=` can collide, and a script's file name
    /// can be a row's name: one line naming the grid file and both lines, or the script.
    @Test func collidingRowNamesNameTheFileAndBothLines() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = "local M = { name = 'S', description = 'text parameters', params = { a = 'x', b = 'y' } }\n"
            + "function M.choose(ctx) return 1 end\nreturn M\n"
        let s = folder.appendingPathComponent("s.lua")
        let named = folder.appendingPathComponent("s[a=w].lua")
        try Data(script.utf8).write(to: s)
        try Data(script.utf8).write(to: named)
        let pairs = try Self.write("s.a,s.b\n# x,b=y and z, then x and y,b=z\n\"x,b=y\",z\nx,\"y,b=z\"\n", in: folder)
        let values = try Self.write("s.a\nv\nw\n", in: folder, name: "values.csv")
        for (strategies, grid, message) in [
            ([s.path], pairs, "\(pairs):4: its s setting is named 's[a=x,b=y,b=z]', like line 3's; a value holding ',', '=' or ']' can make two names alike; change one of them"),
            ([s.path, named.path], values, "\(values):3: its s setting is named 's[a=w]', the id of \(named.path); rename the script or change the value"),
        ] {
            let out = folder.appendingPathComponent("out")
            let result = try CLI.run(Self.base + ["--strategies"] + strategies + ["--param-grid", grid, "--out", out.path])
            #expect(result.status == 1)
            #expect(result.stderr == "abrlab: \(message)\n")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    /// More rows than a run holds is refused before any is made, naming what made them.
    @Test func moreRowsThanARunHoldsAreRefusedAtOnce() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let thousand = (1...1000).map(String.init)
        let grid = try Self.write("bola.gp\n" + (1...1001).map { "\($0)\n" }.joined(), in: folder)
        let message = "the settings make more than 100000 rows, the most one run holds; split the sweep into several runs"
        for (extra, file) in [
            (["--param", "bola.gp=0,\(thousand.joined(separator: ","))", "--param", "bola.capacity_s=\(thousand.joined(separator: ","))"], "--param"),
            (["--param-grid", grid, "--param", "bola.capacity_s=\(thousand.joined(separator: ","))"], grid),
        ] {
            let result = try CLI.run(Self.base + ["--strategies", "Strategies/bola.lua", "--out", folder.appendingPathComponent("out").path] + extra)
            #expect(result.status == 1)
            #expect(result.stderr == "abrlab: \(file): \(message)\n")
        }
    }

    /// Ten thousand grid rows over the shipped video, paired with a baseline: memory stays near
    /// what a few rows take (each session's rows go to the files as they come, not a whole
    /// trace's at once: 486 MB before, 109 MB after, debug build) and time grows linearly. The
    /// trace's 120 MB of segment rows compressed: at most 8 MiB of them wait for their blocks.
    @Test(.tags(.scale), .timeLimit(.minutes(2)), arguments: ["csv", "csv.gz"])
    func tenThousandGridRowsRunInBoundedMemory(segments: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (0..<10_000).map { "\(1 + Double($0) / 1000),\(10 + $0 % 7)\n" }.joined()
        let grid = try Self.write("bola.gp,bola.capacity_s\n" + rows, in: folder)
        let out = folder.appendingPathComponent("out")
        // The ranked table as JSON comes last and fills the pipe (see runMeasuringMemory).
        let run = try CLI.runMeasuringMemory([
            "compare", "--strategies", "Strategies/bola.lua", "conservative", "--baseline", "conservative", "--param-grid", grid,
            "--traces", "Traces/default/4g_1.csv", "--video", "Traces/video.json", "--jobs", "2", "--table", "json", "--out", out.path,
            "--segments-format", segments,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.utf8.count > 1 << 18)
        #expect(run.peakBytes > 0 && run.peakBytes < 224 << 20, "peak resident memory \(run.peakBytes >> 20) MiB")
        #expect(try Self.strategyIDs(out).count == 10_001)
    }

    @Test func aOneRowGridConfiguresASingleSessionCommand() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try Self.write("bba.reservoir_s\n8\n", in: folder)
        let two = try Self.write("bba.reservoir_s\n8\n9\n", in: folder, name: "two.csv")
        let run = ["run", "--strategy", "Strategies/bba.lua", "--trace", "Traces/default/4g_1.csv", "--video", "Traces/video.json"]
        let gridded = try CLI.run(run + ["--param-grid", one])
        let direct = try CLI.run(run + ["--param", "bba.reservoir_s=8"])
        #expect(gridded.status == 0, "\(gridded.stderr)")
        #expect(gridded.stdout == direct.stdout)
        let refused = try CLI.run(run + ["--param-grid", two])
        #expect(refused.stderr == "abrlab: --param: a parameter sweep runs several settings; use abrlab compare for it\n")
    }
}
