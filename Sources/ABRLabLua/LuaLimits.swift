import CLuaShim

/// What one call into Lua and one engine may use, so a buggy or hostile script ends with a
/// clear error instead of hanging or exhausting the process.
///
/// A call is one run of a script's top level, `setup`, `choose`, `on_download` or a seed
/// protocol function. The defaults are ``default``; docs/lua-api.md lists them.
public struct LuaLimits: Hashable, Sendable {
    /// VM instructions one call may run, checked every 1000 instructions. Every 64 bytes the
    /// call allocates count as one instruction, and library functions that loop in C over a
    /// range the script controls (`table.sort`, `table.move`, …) charge that range. Default 10 million.
    public var instructionsPerCall: Int
    /// Wall-clock backstop per call for work the instruction count cannot see, such as comparing
    /// huge strings; 0 turns it off. It depends on the machine, so a sound strategy never comes
    /// near it. Default 2 s.
    public var secondsPerCall: Double
    /// Memory cap of one engine: what a thread's Lua sessions hold. Compiled scripts the engine
    /// keeps for reuse are not counted, so a session's room does not depend on what ran before
    /// it on the same thread. Default 32 MiB.
    public var memoryBytesPerEngine: Int
    /// Largest string `string.rep` may build. Default 1 MiB.
    public var stringRepBytes: Int

    /// What one session may spend across all its calls (the script's run, `choose` and every
    /// hook): ``sessionCallBudgets`` times ``instructionsPerCall``, so a hook called at every
    /// chunk of a long outage ends the session in seconds, not hours.
    public var instructionsPerSession: Int {
        let (product, overflow) = max(0, instructionsPerCall).multipliedReportingOverflow(by: Self.sessionCallBudgets)
        return overflow ? Int(Int64.max) : product
    }

    /// How many calls' budgets a session has in all.
    public static let sessionCallBudgets = Int(ABRL_SESSION_CALL_BUDGETS)

    public init(instructionsPerCall: Int, secondsPerCall: Double, memoryBytesPerEngine: Int, stringRepBytes: Int) {
        self.instructionsPerCall = instructionsPerCall
        self.secondsPerCall = secondsPerCall
        self.memoryBytesPerEngine = memoryBytesPerEngine
        self.stringRepBytes = stringRepBytes
    }

    /// The shim's defaults, so Swift and C cannot disagree.
    public static let `default`: LuaLimits = {
        let limits = abrl_default_limits()
        return LuaLimits(
            instructionsPerCall: Int(limits.instructions_per_call),
            secondsPerCall: limits.seconds_per_call,
            memoryBytesPerEngine: Int(limits.memory_bytes),
            stringRepBytes: Int(limits.string_rep_bytes)
        )
    }()

    func cLimits(verbose: Bool) -> abrl_limits {
        abrl_limits(
            instructions_per_call: Int64(max(0, instructionsPerCall)),
            seconds_per_call: max(0, secondsPerCall),
            memory_bytes: max(0, memoryBytesPerEngine),
            string_rep_bytes: max(0, stringRepBytes),
            verbose: verbose ? 1 : 0
        )
    }
}
