import Foundation
import Testing

/// `--param-grid FILE`: settings listed row by row, run as rows like `--param` sweeps, errors
/// at file:line, and shards of a grid plan merge like any other.
@Suite struct ParamGridTests {
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
        #expect(result.stderr == "abrlab: no/such/grid.csv: cannot read the parameter grid\n")
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
