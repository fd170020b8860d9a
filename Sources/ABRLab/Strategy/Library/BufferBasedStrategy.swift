/// Buffer-based adaptation as Pensieve's baseline implements it.
///
/// Huang et al., "A Buffer-Based Approach to Rate Adaptation", SIGCOMM 2014,
/// doi:10.1145/2619239.2626296; rule as in Pensieve's `sim/bb.py` (Mao et al., SIGCOMM 2017,
/// doi:10.1145/3098822.3098843). Below the reservoir it picks the lowest level, at or above
/// reservoir + cushion the highest, in between a level proportional to the buffer; the first
/// segment is fixed.
public struct BufferBasedStrategy: SessionStrategy, Sendable {
    public var reservoirSeconds: Double
    public var cushionSeconds: Double
    /// 0-based level of the first segment.
    public var firstLevel: Int

    public init(reservoirSeconds: Double = 5, cushionSeconds: Double = 10, firstLevel: Int = 1) {
        self.reservoirSeconds = reservoirSeconds
        self.cushionSeconds = cushionSeconds
        self.firstLevel = firstLevel
    }

    public func chooseLevel(_ context: DecisionContext) -> Int {
        let top = context.levelCount - 1
        guard context.lastLevel != nil else { return min(firstLevel, top) }
        let buffer = context.bufferSeconds
        if buffer < reservoirSeconds { return 0 }
        if buffer >= reservoirSeconds + cushionSeconds { return top }
        return Int(Double(top) * (buffer - reservoirSeconds) / cushionSeconds)
    }
}

extension StrategyDescriptor {
    /// Native buffer-based strategy, id `bba-native`. Its parameters and their defaults are
    /// `Strategies/bba.lua`'s, levels 1-based as there.
    public static let bufferBased = StrategyDescriptor(
        id: "bba-native",
        name: "BBA (native)",
        description: "Buffer-based rule from Pensieve's baseline: reservoir 5 s, cushion 10 s.",
        params: [
            StrategyParam(key: "reservoir_s", value: .number(5), summary: "buffer below which the lowest level plays"),
            StrategyParam(key: "cushion_s", value: .number(10), summary: "buffer range over which the level climbs to the top"),
            StrategyParam(key: "first_level", value: .integer(2), summary: "1-based level of the first segment"),
        ]
    ) { values throws(InputError) in
        let reservoir = values.declaredNumber("reservoir_s")
        let cushion = values.declaredNumber("cushion_s")
        let firstLevel = values.declaredInteger("first_level")
        guard reservoir >= 0, cushion > 0 else {
            throw InputError(setting: .param, "bba-native needs reservoir_s ≥ 0 and cushion_s > 0, not \(reservoir) and \(cushion)")
        }
        guard firstLevel >= 1 else {
            throw InputError(setting: .param, "parameter bba-native.first_level needs a level from 1, not \(firstLevel)")
        }
        return { BufferBasedStrategy(reservoirSeconds: reservoir, cushionSeconds: cushion, firstLevel: firstLevel - 1) }
    }
}
