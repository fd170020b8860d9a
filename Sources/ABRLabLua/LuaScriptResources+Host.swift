import ABRLab
import CLuaShim

extension LuaScriptResources {
    /// The callbacks the shim calls for `require`, `abrlab.model`, `net:forward` and
    /// `ctx:mpc_search`; valid while this object lives, which every session of the script ensures
    /// by holding the script. The forward pass is the core's ``ActorNetwork`` and the search its
    /// ``MPCSearch``: one implementation of each for Swift and Lua.
    var host: abrl_host { makeHost() }

    /// `require` alone, for QoE scripts: without `load_model` the shim leaves `abrlab` out.
    var moduleHost: abrl_host {
        var host = makeHost()
        host.load_model = nil
        host.forward = nil
        return host
    }

    private func makeHost() -> abrl_host {
        abrl_host(
            context: Unmanaged.passUnretained(self).toOpaque(),
            read_module: { context, name, source, length, label, message, messageSize in
                guard let context, let name else { return 1 }
                let resources = Unmanaged<LuaScriptResources>.fromOpaque(context).takeUnretainedValue()
                switch resources.module(named: String(cString: name)) {
                case .success(let module):
                    source?.pointee = UnsafePointer(module.source.baseAddress)
                    length?.pointee = module.sourceCount
                    label?.pointee = UnsafePointer(module.labelText.baseAddress)
                    return 0
                case .failure(let error):
                    LuaScriptResources.write(error.message, to: message, size: messageSize)
                    return 1
                }
            },
            load_model: { context, path, model, message, messageSize in
                guard let context, let path, let model else { return 1 }
                let resources = Unmanaged<LuaScriptResources>.fromOpaque(context).takeUnretainedValue()
                switch resources.model(at: String(cString: path)) {
                case .success(let network):
                    model.pointee = abrl_model_info(
                        model: UnsafeRawPointer(Unmanaged.passUnretained(network).toOpaque()),
                        rows: Int64(ActorNetwork.rows),
                        columns: Int64(network.columns),
                        outputs: Int64(network.outputs),
                        cost: Int64(LuaScriptResources.forwardCost(network)),
                        steps: network.actions == .steps ? 1 : 0
                    )
                    return 0
                case .failure(let error):
                    LuaScriptResources.write(error.message, to: message, size: messageSize)
                    return 1
                }
            },
            forward: { model, input, output in
                guard let model, let input, let output else { return }
                Unmanaged<ActorNetwork>.fromOpaque(model).takeUnretainedValue().forward(input: input, output: output)
            },
            mpc_search: { question, answer in
                guard let question, let answer else { return }
                answer.pointee = LuaScriptResources.answer(question.pointee)
            }
        )
    }

    /// `ctx:mpc_search`'s search over the video the shim copied for the session.
    static func answer(_ question: abrl_mpc_question) -> abrl_mpc_answer {
        let levels = Int(question.level_count)
        let segments = Int(question.size_segment_count)
        let sizes = question.sizes_bytes
        let search = MPCSearch(
            levelsKbps: Array(UnsafeBufferPointer(start: question.levels_kbps, count: levels)),
            segmentSeconds: question.segment_duration_s, rebufferPenalty: question.rebuffer_penalty,
            smoothnessPenalty: question.smoothness_penalty
        )
        let outcome = search.run(
            depth: Int(question.depth), firstSegment: Int(question.first_segment), bandwidthMBps: question.bandwidth_MBps,
            bufferSeconds: question.buffer_s, lastLevel: Int(question.last_level), nodeLimit: Int(clamping: question.node_limit)
        ) { segment, level in
            guard let sizes, segment >= 0, segment < segments else { return 0 }
            return Int(sizes[segment * levels + level])
        }
        switch outcome {
        case .best(let level, let reward, let nodes):
            return abrl_mpc_answer(level: Int64(level), reward: reward, nodes: UInt64(nodes), finished: 1)
        case .stopped(let nodes):
            return abrl_mpc_answer(level: 0, reward: 0, nodes: UInt64(nodes), finished: 0)
        }
    }

    /// Copies `text` into a C buffer of `size` bytes, cut at a character boundary and NUL-terminated.
    static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        var count = 0
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard count + bytes.count < size else { break }
            for byte in bytes {
                buffer[count] = CChar(bitPattern: byte)
                count += 1
            }
        }
        buffer[count] = 0
    }
}
