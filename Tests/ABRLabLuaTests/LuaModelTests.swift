import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `abrlab.model` and `net:forward` from Lua: the core's forward pass, a fixed budget charge,
/// and one clear error for every bad model or state.
@Suite(.tags(.lua), .selectedByTags) struct LuaModelTests {
    static let limits = LuaLimits(instructionsPerCall: 2_000_000, secondsPerCall: 30, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)
    static let loader = LuaStrategyLoader(limits: limits)

    /// A Genet-like actor: 6-column history, 3 actions, small layers; weights from a sine.
    static func genetLike(values: ((Int, Double) -> Double)? = nil) -> [SafetensorsFile.Tensor] {
        var tensors: [SafetensorsFile.Tensor] = []
        var salt = 0.0
        func add(_ name: String, _ shape: [Int]) {
            salt += 1
            let count = shape.reduce(1, *)
            let make = values ?? { index, salt in Double(Float(sin(Double(index) * 0.61 + salt) * 0.5)) }
            tensors.append(SafetensorsFile.Tensor(name: "actor/" + name, dtype: "F32", shape: shape, values: (0..<count).map { make($0, salt) }))
        }
        for name in ["FullyConnected", "FullyConnected_1", "FullyConnected_2"] {
            add(name + "/W", [1, 8])
            add(name + "/b", [8])
        }
        for (name, columns) in [("Conv1D", 6), ("Conv1D_1", 6), ("Conv1D_2", 3)] {
            add(name + "/W", [4, 1, columns, 8])
            add(name + "/b", [8])
        }
        add("FullyConnected_3/W", [48, 5])
        add("FullyConnected_3/b", [5])
        add("FullyConnected_4/W", [5, 3])
        add("FullyConnected_4/b", [3])
        return tensors
    }

    static func writeModel(_ folder: ScriptFolder, _ name: String, _ tensors: [SafetensorsFile.Tensor], metadata: [String: String] = [:]) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/models", withIntermediateDirectories: true)
        try Data(SafetensorsFile.encode(tensors, metadata: metadata)).write(to: URL(fileURLWithPath: folder.path + "/models/" + name))
    }

    /// The file's `__metadata__` says what its tensors cannot: `net.actions`, and the row branch
    /// 6 reads (the forward pass is the core's, as that metadata makes it); a metadata shape
    /// the tensors do not have is one error naming the tensor.
    @Test func theFilesMetadataSaysWhatAnOutputMeans() throws {
        let folder = try ScriptFolder()
        let steps = ["inputs": "6x6", "outputs": "3 (0 = one level down, 1 = stay, 2 = one level up)", "branch6_reads": "row 5"]
        try Self.writeModel(folder, "steps.safetensors", Self.genetLike(), metadata: steps)
        try Self.writeModel(folder, "levels.safetensors", Self.genetLike())
        try Self.writeModel(folder, "wide.safetensors", Self.genetLike(), metadata: ["inputs": "6x8"])
        let expected = try ActorNetwork(contentsOf: folder.path + "/models/steps.safetensors").probabilities(Self.state)
        #expect(expected != (try ActorNetwork(contentsOf: folder.path + "/models/levels.safetensors").probabilities(Self.state)))
        let script = try folder.load("meta.lua", """
            local steps = abrlab.model("models/steps.safetensors")
            local levels = abrlab.model("models/levels.safetensors")
            assert(steps.actions == "steps" and levels.actions == "levels")
            local expected = { \(expected.map { String(format: "%a", $0) }.joined(separator: ", ")) }
            return { choose = function(ctx)
              local p = steps:forward(\(Self.luaRows(Self.state)))
              for i = 1, 3 do assert(p[i] == expected[i], string.format("%d: %a vs %a", i, p[i], expected[i])) end
              return 1
            end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 2) == [0, 0])
        let file = try folder.write("wide.lua", "\nlocal net = abrlab.model(\"models/wide.safetensors\")\nreturn { choose = function() return 1 end }\n")
        #expect(Fixture.failure { _ = try Self.loader.load(path: file) }
            == "\(file):2: abrlab.model: \(folder.path)/models/wide.safetensors: does not fit the actor layout: actor/Conv1D/W reads a history of 6 columns (shape [4, 1, 6, 8]) but its __metadata__ declares 8")
    }

    static let state: [[Double]] = (0..<6).map { (row: Int) -> [Double] in
        (0..<6).map { (column: Int) -> Double in Double(row * 6 + column) / 17 - 1 }
    }

    static func luaRows(_ rows: [[Double]]) -> String {
        "{" + rows.map { "{" + $0.map { String($0) }.joined(separator: ", ") + "}" }.joined(separator: ", ") + "}"
    }

    @Test func forwardFromLuaGivesTheCoresProbabilitiesBitForBit() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "genet.safetensors", Self.genetLike())
        let expected = try ActorNetwork(contentsOf: folder.path + "/models/genet.safetensors").probabilities(Self.state)
        let script = try folder.load("wrap.lua", """
            local net = abrlab.model("models/genet.safetensors")
            assert(net.rows == 6 and net.columns == 6 and net.outputs == 3)
            assert(tostring(net) == "abrlab.model (6×6 → 3)", tostring(net))
            local expected = { \(expected.map { String(format: "%a", $0) }.joined(separator: ", ")) }
            return { choose = function(ctx)
              local p = net:forward(\(Self.luaRows(Self.state)))
              assert(#p == 3)
              for i = 1, 3 do assert(p[i] == expected[i], string.format("%d: %a vs %a", i, p[i], expected[i])) end
              local into = {}
              assert(rawequal(net:forward(\(Self.luaRows(Self.state)), into), into) and into[3] == expected[3])
              assert(not pcall(net.forward, net, \(Self.luaRows(Self.state)), 5))
              return 1
            end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 2) == [0, 0])
    }

    struct BadState: Sendable, CustomStringConvertible {
        let name: String
        let rows: String
        let detail: String
        var description: String { name }
    }

    @Test(arguments: [
        BadState(name: "not a table", rows: "42", detail: "got a number value"),
        BadState(name: "too few rows", rows: "{{0,0,0,0,0,0}}", detail: "it has 1 rows"),
        BadState(name: "a row that is no table", rows: "{1,2,3,4,5,6}", detail: "row 1 is a number value"),
        BadState(name: "a short row", rows: "{Z,Z,Z,{0,0,0},Z,Z}", detail: "row 4 has 3 values"),
        BadState(name: "a string", rows: "{Z,Z,{0,0,'x',0,0,0},Z,Z,Z}", detail: "row 3, column 3 is a string value"),
        BadState(name: "NaN", rows: "{Z,Z,Z,Z,Z,{0,0,0,0,0,0/0}}", detail: "row 6, column 6 is "),
        BadState(name: "infinity", rows: "{{math.huge,0,0,0,0,0},Z,Z,Z,Z,Z}", detail: "row 1, column 1 is inf"),
    ])
    func aStateOfTheWrongShapeIsOneErrorAtTheScriptsLine(_ bad: BadState) throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "genet.safetensors", Self.genetLike())
        let script = try folder.load("bad.lua", """
            local net = abrlab.model("models/genet.safetensors")
            local Z = {0, 0, 0, 0, 0, 0}
            return { choose = function(ctx)
              return #net:forward(\(bad.rows))
            end }
            """, loader: Self.loader)
        let message = Fixture.failure { _ = try Fixture.play(script, segments: 1) } ?? "no error"
        #expect(message.hasPrefix("\(script.path):4: forward: the state must be a table of 6 rows of 6 numbers; \(bad.detail)"), "\(message)")
    }

    /// Finite weights that overflow float32 give NaN; forward reports it at the script's line.
    @Test func anOverflowingModelIsAnErrorNotANaNChoice() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "huge.safetensors", Self.genetLike { index, _ in index.isMultiple(of: 2) ? 3e38 : -3e38 })
        let script = try folder.load("huge.lua", """
            local net = abrlab.model("models/huge.safetensors")
            return { choose = function(ctx)
              return #net:forward(\(Self.luaRows(Self.state)))
            end }
            """, loader: Self.loader)
        let message = Fixture.failure { _ = try Fixture.play(script, segments: 1) } ?? "no error"
        #expect(message.hasPrefix("\(script.path):3: forward: the model's output "), "\(message)")
        #expect(message.contains("is not a probability"))
    }

    @Test func badModelFilesAndPathsAreOneErrorNamingTheScriptLineAndTheFile() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "nan.safetensors", Self.genetLike { index, salt in index == 3 && salt == 5 ? .nan : 0.1 })
        try Self.writeModel(folder, "misfit.safetensors", Array(Self.genetLike().dropLast(2)))
        let cases: [(String, String)] = [
            ("models/none.safetensors", "abrlab.model: \(folder.path)/models/none.safetensors: no such file"),
            ("models/nan.safetensors", "abrlab.model: \(folder.path)/models/nan.safetensors: tensor actor/FullyConnected_2/W holds NaN at index 3; weights must be finite"),
            ("models/misfit.safetensors", "abrlab.model: \(folder.path)/models/misfit.safetensors: has no tensor FullyConnected_4/W (or prefix/FullyConnected_4/W); not a Pensieve-style actor (see docs/lua-api.md, Models)"),
            ("../outside.safetensors", "abrlab.model: '../outside.safetensors' is not a path inside the script's folder (relative, no '..')"),
            ("/etc/passwd", "abrlab.model: '/etc/passwd' is not a path inside the script's folder (relative, no '..')"),
        ]
        for (path, expected) in cases {
            let file = try folder.write("user.lua", "\nlocal net = abrlab.model(\"\(path)\")\nreturn { choose = function() return 1 end }\n")
            #expect(Fixture.failure { _ = try Self.loader.load(path: file) } == "\(file):2: \(expected)")
        }
    }

    @Test func eachForwardCostsAFixedShareOfTheBudget() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "genet.safetensors", Self.genetLike())
        let script = try folder.load("greedy.lua", """
            local net = abrlab.model("models/genet.safetensors")
            local state = \(Self.luaRows(Self.state))
            return { choose = function(ctx)
              for i = 1, 1e9 do net:forward(state) end
            end }
            """, loader: Self.loader)
        #expect(Fixture.failure { _ = try Fixture.play(script, segments: 1) } == "\(script.path):4: choose exceeded the budget of 2000000 instructions per call")
    }

    @Test func theModelIsReadOncePerScript() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "genet.safetensors", Self.genetLike())
        let script = try folder.load("once.lua", """
            local net = abrlab.model("models/genet.safetensors")
            return { choose = function(ctx) return net.outputs end }
            """, loader: Self.loader)
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: folder.path + "/models/genet.safetensors"))
        #expect(try Fixture.play(script, segments: 2) == [2, 2])
    }

    @Test func theHandleCannotBeTamperedWith() throws {
        let folder = try ScriptFolder()
        try Self.writeModel(folder, "genet.safetensors", Self.genetLike())
        let script = try folder.load("tamper.lua", """
            local net = abrlab.model("models/genet.safetensors")
            assert(getmetatable(net) == false)
            assert(not pcall(function() net.rows = 1 end))
            assert(not pcall(net.forward, {}, {}))
            return { choose = function() return 1 end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [0])
    }
}

/// pensieve.lua and pensieve-native on the conformance traces under both profiles: the same
/// segments for both actions and several seeds.
@Suite(.tags(.lua), .selectedByTags) struct PensieveTwinTests {
    @Test(arguments: ["sampled", "argmax"], [7, 42])
    func luaAndNativeChooseAlike(action: String, seed: Int) throws {
        let overrides = ["action": action, "seed": String(seed)]
        let lua = try StrategyLibraryTests.script("pensieve", overrides: overrides).descriptor()
        let native = try PensieveScriptTests.native.configured(overrides)
        let conformance = try StrategyConformance()
        for profile in [EmulationProfile.pensieve, .default] {
            let emulator = SessionEmulator(profile: profile, segmentsToPlay: conformance.video.segmentCount)
            for trace in conformance.traces {
                let a = try emulator.run(strategy: try lua.makeStrategy(), strategyID: "pensieve", trace: trace, video: conformance.video)
                let b = try emulator.run(strategy: try native.makeStrategy(), strategyID: "pensieve-native", trace: trace, video: conformance.video)
                #expect(a.segments == b.segments, "\(profile.name) \(trace.name)")
            }
        }
    }
}
