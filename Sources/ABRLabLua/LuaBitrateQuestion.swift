import CLuaShim

/// The question form's questions, with the Lua function that answers each.
enum LuaBitrateQuestion: Equatable {
    case initial, upgrade, downgrade

    var code: Int32 {
        switch self {
        case .initial: Int32(ABRL_SEED_INITIAL)
        case .upgrade: Int32(ABRL_SEED_UPGRADE)
        case .downgrade: Int32(ABRL_SEED_DOWNGRADE)
        }
    }

    var name: String {
        switch self {
        case .initial: "initial_bitrate"
        case .upgrade: "should_upgrade"
        case .downgrade: "should_downgrade"
        }
    }
}
