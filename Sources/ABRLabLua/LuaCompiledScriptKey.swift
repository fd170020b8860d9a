/// Names a compiled script (a Lua "chunk") in an engine by what it is: its label and source. Scripts loaded
/// twice, or copies with other parameters, share one compiled script, so an engine's cache grows
/// with distinct sources only. The hash is computed once per script, not per session.
struct LuaCompiledScriptKey: Hashable, Sendable {
    let label: String
    let source: [UInt8]
    private let hash: Int

    init(label: String, source: [UInt8]) {
        self.label = label
        self.source = source
        var hasher = Hasher()
        hasher.combine(label)
        hasher.combine(source)
        self.hash = hasher.finalize()
    }

    static func == (lhs: LuaCompiledScriptKey, rhs: LuaCompiledScriptKey) -> Bool {
        lhs.hash == rhs.hash && lhs.label == rhs.label && lhs.source == rhs.source
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
