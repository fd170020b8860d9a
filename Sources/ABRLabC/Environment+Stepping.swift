import ABRLab

// Resets and steps over every session, their arguments and results in an ``EnvCall``.

extension Environment {
    /// Resets the sessions the call's `reset_mask` names (every one without it), each to its
    /// `reset_traces` entry or its shuffle's next; writes every session's observations and trace.
    func reset(_ call: EnvCall) throws(EnvError) {
        let mask = call.buffer(.resetMask, UInt8.self)
        let chosen = call.buffer(.resetTraces, Int64.self)
        let traceCount = configuration.traces.count
        if let chosen {
            for slot in slots.indices where (mask.map { $0[slot] != 0 } ?? true) && chosen[slot] >= traceCount {
                throw .invalid("trace \(chosen[slot]) does not exist: the environment has \(traceCount)")
            }
        }
        let starting = slots.indices.count(where: { slot in slots[slot].isIdle && (mask.map { $0[slot] != 0 } ?? true) })
        try EnvMemory.checkReset(configuration, sessions: starting)
        let configuration = configuration
        let contextLength = contextLength
        let (state, context, traces) = (call.buffer(.state, Float.self), call.buffer(.context, Double.self), call.buffer(.traces, Int64.self))
        try forEachSlot { (session, slot) throws(EnvError) in
            if mask.map({ $0[slot] != 0 }) ?? true {
                let trace = chosen.map { Int($0[slot]) } ?? -1
                try session.reset(configuration, trace: trace >= 0 ? trace : session.shuffle.next())
            }
            session.observe(state: state.map { $0 + slot * Self.stateLength }, context: context.map { $0 + slot * contextLength })
            traces?[slot] = Int64(session.traceIndex)
        }
    }

    /// Steps every session with its action under the call's autoreset mode (``EnvCall/AutoresetMode``).
    /// Every session is checked before any moves, so a refused step changes nothing. The
    /// results do not depend on how many worker threads step the sessions.
    func step(_ call: EnvCall) throws(EnvError) {
        let mode = try call.autoreset()
        guard let actions = call.buffer(.actions, Int64.self), let rewards = call.buffer(.rewards, Double.self),
            let terminated = call.buffer(.terminated, UInt8.self), let truncated = call.buffer(.truncated, UInt8.self),
            let resets = call.buffer(.resets, UInt8.self)
        else { throw .invalid("a step needs the actions, rewards, terminated, truncated and resets buffers") }
        let levels = configuration.levelCount
        let single = slots.count == 1
        for slot in slots.indices {
            if let reason = slots[slot].whyNotStepping {
                if mode == .nextStep { continue }
                throw .resetNeeded(single ? reason : "session \(slot): \(reason)")
            }
            guard actions[slot] >= 0, actions[slot] < levels else {
                let which = single ? "action \(actions[slot])" : "action \(actions[slot]) of environment \(slot)"
                throw .invalid("\(which) is outside the ladder: levels are 0 to \(levels - 1)")
            }
        }
        let work = SlotStep(
            configuration: configuration, mode: mode, maxSteps: call.maxEpisodeSteps, actions: actions, state: call.buffer(.state),
            context: call.buffer(.context), rewards: rewards, terminated: terminated, truncated: truncated, resets: resets,
            records: call.buffer(.records), traces: call.buffer(.traces), finalState: call.buffer(.finalState),
            finalContext: call.buffer(.finalContext), contextLength: contextLength
        )
        try forEachSlot { (session, slot) throws(EnvError) in try work.run(&session, slot) }
    }

    /// Runs `body` on every slot: on the caller's thread, or on each slot's own worker thread
    /// (``EnvWorkers``) all at once. A worker stops at its first error; the error of the lowest
    /// slot that failed is thrown.
    private func forEachSlot(_ body: (inout EnvSlot, Int) throws(EnvError) -> Void) throws(EnvError) {
        try withSlots { (slots) throws(EnvError) in
            guard let workers else {
                for slot in slots.indices { try body(&slots[slot], slot) }
                return
            }
            let count = slots.count
            let base = slots.baseAddress!
            var failures = [EnvError?](repeating: nil, count: workers.count)
            failures.withUnsafeMutableBufferPointer { failures in
                let failed = failures.baseAddress!
                workers.run { worker in
                    for slot in workers.range(of: worker, slots: count) {
                        do throws(EnvError) {
                            try body(&base[slot], slot)
                        } catch {
                            failed[worker] = error
                            return
                        }
                    }
                }
            }
            if let first = failures.lazy.compactMap({ $0 }).first { throw first }
        }
    }
}

/// One step of one session, the buffers it writes its row of.
private struct SlotStep {
    let configuration: EnvConfiguration
    let mode: EnvCall.AutoresetMode
    let maxSteps: Int?
    let actions: UnsafeMutablePointer<Int64>
    let state: UnsafeMutablePointer<Float>?
    let context: UnsafeMutablePointer<Double>?
    let rewards: UnsafeMutablePointer<Double>
    let terminated: UnsafeMutablePointer<UInt8>
    let truncated: UnsafeMutablePointer<UInt8>
    let resets: UnsafeMutablePointer<UInt8>
    let records: UnsafeMutablePointer<Double>?
    let traces: UnsafeMutablePointer<Int64>?
    let finalState: UnsafeMutablePointer<Float>?
    let finalContext: UnsafeMutablePointer<Double>?
    let contextLength: Int

    func run(_ session: inout EnvSlot, _ slot: Int) throws(EnvError) {
        let stateRow = Environment.stateLength
        let record = records.map { $0 + slot * EnvFields.recordCount }
        if session.needsReset {
            // Only in next-step mode: the others refused the step.
            try session.reset(configuration, trace: session.shuffle.next())
            rewards[slot] = 0
            terminated[slot] = 0
            truncated[slot] = 0
            resets[slot] = 1
            if let record { EnvFields.writeEmptyRecord(to: record) }
        } else {
            let step = try session.step(configuration, level: Int(actions[slot]), maxSteps: maxSteps, recordsState: state != nil || finalState != nil, record: record)
            rewards[slot] = step.reward
            terminated[slot] = step.terminated ? 1 : 0
            truncated[slot] = step.truncated ? 1 : 0
            resets[slot] = 0
            if mode == .sameStep, step.terminated || step.truncated {
                session.observe(state: finalState.map { $0 + slot * stateRow }, context: finalContext.map { $0 + slot * contextLength })
                try session.reset(configuration, trace: session.shuffle.next())
                resets[slot] = 1
            }
        }
        session.observe(state: state.map { $0 + slot * stateRow }, context: context.map { $0 + slot * contextLength })
        traces?[slot] = Int64(session.traceIndex)
    }
}
