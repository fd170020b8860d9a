/// A QoE model beyond `QoEModel`'s built-in kinds, such as a Lua script
/// (`ABRLabLua.LuaQoEModel`): it scores every segment of a finished session.
///
/// It is a value shared by all worker threads; anything it needs per session (an engine, a
/// sandbox) it makes in `segmentScores`, on the calling thread.
public protocol SegmentQoEModel: Sendable {
    /// How results name the model (the `qoe_model` column, `run.json`).
    var name: String { get }
    /// One score per segment of `result`, in order; an error fails the session. `seed` is the
    /// session's seed, so a model that draws random numbers stays reproducible.
    func segmentScores(_ result: SessionResult, video: Video, seed: UInt64) throws -> [Double]
}
