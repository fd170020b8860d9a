import CLuaShim

/// A table a Lua script is given (ctx, report, …), as the shim declares and fills it.
///
/// The fields are declared once, in CLuaShim's `api.c`: the shim fills every table from that
/// declaration, and tests hold docs/lua-api.md, docs/qoe.md and `Strategies/abrlab.d.lua` to it.
public enum LuaAPITable: CaseIterable, Sendable {
    /// `choose(ctx)`.
    case ctx
    /// `on_download(report)`.
    case report
    /// Each entry of `ctx.last_chunks` and `report.chunks`.
    case chunk
    /// `check_abandon(progress)`.
    case progress
    /// `on_wait(wait)`.
    case wait
    /// `on_playback(playback)`, live only.
    case playback
    /// `setup(session)`.
    case session
    /// `check(video)`: the session's fields that hold for every session of a run.
    case video
    /// A QoE script's `qoe(segment, session)`.
    case qoeSegment
    case qoeSession

    private var code: Int32 {
        switch self {
        case .ctx: Int32(ABRL_TABLE_CTX)
        case .report: Int32(ABRL_TABLE_REPORT)
        case .chunk: Int32(ABRL_TABLE_CHUNK)
        case .progress: Int32(ABRL_TABLE_PROGRESS)
        case .wait: Int32(ABRL_TABLE_WAIT)
        case .playback: Int32(ABRL_TABLE_PLAYBACK)
        case .session: Int32(ABRL_TABLE_SESSION)
        case .video: Int32(ABRL_TABLE_VIDEO)
        case .qoeSegment: Int32(ABRL_TABLE_QOE_SEGMENT)
        case .qoeSession: Int32(ABRL_TABLE_QOE_SESSION)
        }
    }

    /// The name messages give it: `ctx has no field 'x'`.
    public var name: String { String(cString: abrl_api_table_name(code)) }

    /// Its LuaCATS class in `abrlab.d.lua`.
    public var className: String { String(cString: abrl_api_class_name(code)) }

    /// Whether reading a field it does not declare is an error.
    public var isStrict: Bool { abrl_api_table_is_strict(code) != 0 }

    /// Its fields, in the order the docs list them.
    public var fields: [LuaAPIField] {
        (0..<abrl_api_field_count(code)).compactMap { index in abrl_api_field_at(code, index).map { LuaAPIField($0.pointee) } }
    }
}
