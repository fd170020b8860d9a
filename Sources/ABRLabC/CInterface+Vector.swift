import ABRLab

// The vector environment's calls: every session in one call, on arrays of `slots` rows.

/// Resets every session to the next trace of its shuffle; writes the observations (row per
/// session; either pointer may be null) and each session's trace index.
@_cdecl("abrlab_env_reset_all")
public func abrlabEnvResetAll(
    _ pointer: UnsafeMutableRawPointer, _ state: UnsafeMutablePointer<Float>?, _ context: UnsafeMutablePointer<Double>?,
    _ traces: UnsafeMutablePointer<Int64>, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in
        let stateRow = Environment.stateLength
        let contextRow = env.contextLength
        for slot in env.slots.indices {
            try env.reset(slot: slot, trace: -1)
            env.observe(slot: slot, state: state.map { $0 + slot * stateRow }, context: context.map { $0 + slot * contextRow })
            traces[slot] = Int64(env.slots[slot].traceIndex)
        }
    }
}

/// Steps every session with its action (0-based levels), with Gymnasium's next-step
/// autoreset: a session whose episode ended at the previous call is reset to the next trace of
/// its shuffle instead (its action ignored, reward 0, `resets` 1, record NaN). Writes
/// observations, rewards, terminations, records and trace indices, a row per session. Every
/// action is checked before any session moves, so an action out of range changes nothing.
@_cdecl("abrlab_env_step_all")
public func abrlabEnvStepAll(
    _ pointer: UnsafeMutableRawPointer, _ actions: UnsafePointer<Int64>, _ state: UnsafeMutablePointer<Float>?,
    _ context: UnsafeMutablePointer<Double>?, _ rewards: UnsafeMutablePointer<Double>, _ terminated: UnsafeMutablePointer<UInt8>,
    _ resets: UnsafeMutablePointer<UInt8>, _ records: UnsafeMutablePointer<Double>?, _ traces: UnsafeMutablePointer<Int64>,
    _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in
        let levels = env.configuration.levelCount
        for slot in env.slots.indices where !env.slots[slot].needsReset && !(actions[slot] >= 0 && actions[slot] < levels) {
            throw .invalid("action \(actions[slot]) of environment \(slot) is outside the ladder: levels are 0 to \(levels - 1)")
        }
        let stateRow = Environment.stateLength
        let contextRow = env.contextLength
        let recordRow = EnvFields.record.count
        let configuration = env.configuration
        let recordsState = state != nil
        try env.withSlots { (slots) throws(EnvError) in
            for slot in slots.indices {
                let stateOut = state.map { $0 + slot * stateRow }
                let contextOut = context.map { $0 + slot * contextRow }
                if slots[slot].needsReset {
                    try slots[slot].reset(configuration, trace: slots[slot].shuffle.next())
                    rewards[slot] = 0
                    terminated[slot] = 0
                    resets[slot] = 1
                    if let records { EnvFields.writeEmptyRecord(to: records + slot * recordRow) }
                } else {
                    let step = try slots[slot].step(
                        configuration, level: Int(actions[slot]), recordsState: recordsState, record: records.map { $0 + slot * recordRow }
                    )
                    rewards[slot] = step.reward
                    terminated[slot] = step.terminated ? 1 : 0
                    resets[slot] = 0
                }
                slots[slot].observe(state: stateOut, context: contextOut)
                traces[slot] = Int64(slots[slot].traceIndex)
            }
        }
    }
}

/// Writes what every expert would choose at each session's current decision, a row of
/// `experts` levels per session (0-based; −1 for a session waiting for its autoreset). An expert
/// that failed in a session is an error naming it.
@_cdecl("abrlab_env_experts")
public func abrlabEnvExperts(
    _ pointer: UnsafeMutableRawPointer, _ levels: UnsafeMutablePointer<Int64>, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in
        let ids = env.configuration.experts.map(\.id)
        for (slot, session) in env.slots.enumerated() {
            for (index, expert) in session.experts.experts.enumerated() {
                switch expert {
                case .following(_, let choice): levels[slot * ids.count + index] = session.needsReset ? -1 : Int64(choice)
                case .failed(let reason):
                    throw .emulation("expert \(ids[index]) failed on trace \(env.configuration.traces[session.traceIndex].name): \(reason)")
                }
            }
        }
    }
}
