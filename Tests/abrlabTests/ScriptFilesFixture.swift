import Foundation

/// Strategy and QoE scripts with modules and a model in a temporary folder, for the tests that
/// edit a file a run's code reads between two runs.
///
/// - `S/my_rule.lua` requires `lib.myhelpers` literally (the helper module);
/// - `S/dyn.lua` requires `lib.t_3g` or `lib.t_4g` by a name built from the session's trace,
///   so which one a run reads depends on its traces;
/// - `S/late.lua` requires `lib.rt` by a built name in its first decision;
/// - `S/pensieve.lua` is the shipped one with its module and model;
/// - `Q/q.lua` is a QoE script requiring `weights`; `Q/dq.lua` requires `w_3g` or `w_4g` by a
///   name built from the session's trace.
final class ScriptFilesFixture {
    let root: URL

    init() throws {
        root = try CLI.temporaryFolder()
        let shipped = CLI.packageRoot.appendingPathComponent("Strategies")
        for folder in ["S/lib", "S/models", "Q"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["pensieve.lua", "lib/numpy_random.lua", "models/pensieve.safetensors"] {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(file), to: root.appendingPathComponent("S/" + file))
        }
        try write("S/lib/myhelpers.lua", "local M = {}\nfunction M.ratio(k, s) return k / s end\nreturn M\n")
        try write("S/my_rule.lua", """
            local h = require("lib.myhelpers")
            return { choose = function(ctx)
              local r = h.ratio(ctx.buffer_s, 10)
              if r > 1 then return ctx.level_count end
              if r > 0.5 then return math.min(3, ctx.level_count) end
              return 1
            end }

            """)
        try write("S/lib/t_3g.lua", "return { level = 1 }\n")
        try write("S/lib/t_4g.lua", "return { level = 2 }\n")
        try write("S/dyn.lua", """
            local pick
            return {
              setup = function(session) pick = require("lib.t_" .. session.trace:sub(1, 2)) end,
              choose = function(ctx) return pick.level end,
            }

            """)
        try write("S/lib/rt.lua", "return { level = 2 }\n")
        try write("S/late.lua", """
            local name = "lib." .. "rt"
            return { choose = function(ctx) return require(name).level end }

            """)
        try write("Q/weights.lua", "return { rebuffer = 4.3 }\n")
        try write("Q/q.lua", """
            local w = require("weights")
            return { qoe = function(s) return s.bitrate_kbps / 1000 - w.rebuffer * s.rebuffer_s end }

            """)
        try write("Q/w_3g.lua", "return { rebuffer = 4.3 }\n")
        try write("Q/w_4g.lua", "return { rebuffer = 8 }\n")
        try write("Q/dq.lua", """
            return { qoe = function(s, session)
              local w = require("w_" .. session.trace:sub(1, 2))
              return s.bitrate_kbps / 1000 - w.rebuffer * s.rebuffer_s
            end }

            """)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The absolute path of `relative`.
    func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(relative))
    }

    struct EditError: Error, CustomStringConvertible {
        let description: String
    }

    /// Replaces `old` with `new` in the file `relative`, which must hold it.
    func edit(_ relative: String, _ old: String, _ new: String) throws {
        let text = try CLI.read(root.appendingPathComponent(relative))
        guard text.contains(old) else { throw EditError(description: "\(relative) does not hold \(old)") }
        try write(relative, text.replacingOccurrences(of: old, with: new))
    }

    /// Flips the lowest bit of the first weight of the model `relative`: still a valid model.
    func nudgeModel(_ relative: String) throws {
        let url = root.appendingPathComponent(relative)
        var bytes = try [UInt8](Data(contentsOf: url))
        let headerLength = bytes[0..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        bytes[8 + headerLength] ^= 1
        try Data(bytes).write(to: url)
    }
}
