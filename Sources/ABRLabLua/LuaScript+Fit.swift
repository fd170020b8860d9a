import ABRLab
import CLuaShim

extension LuaScript {
    /// Calls the script's optional `check(video)` once, in the calling thread's engine: `nil`
    /// (or `true`) says it can play the video, a string says why it cannot. A script without
    /// `check` fits every video; an error in `check` names the script and line.
    public func fit(_ setting: RunSetting) throws(InputError) -> VideoFit {
        let engine: LuaEngine
        do { engine = try LuaEngineCache.current.engine(limits: limits, verbose: verbose) } catch {
            throw InputError(file: path, error.message)
        }
        let compiled = try engine.compiledScript(for: self)
        // The check sees no trace and no seed (the shim leaves them out of its table).
        let info = SessionInfo(
            video: setting.video, segmentCount: setting.segmentCount, traceName: "", profileName: setting.profileName,
            seed: 0, maxBufferSeconds: setting.maxBufferSeconds, live: setting.live
        )
        var fits: Int32 = 1
        let status = LuaSession.withSessionInfo(info, script: self) { cInfo in
            abrl_script_check(engine.handle, compiled, cInfo, &fits)
        }
        guard status == Int32(ABRL_OK) else { throw location.error(status: status, message: engine.message, phase: "check") }
        return fits != 0 ? .fits : .unfit(reason: engine.message)
    }
}
