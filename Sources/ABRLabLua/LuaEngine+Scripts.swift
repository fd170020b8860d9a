import ABRLab
import CLuaShim

extension LuaEngine {
    /// Compiles the script `key` names (text only), or returns the one compiled before. Kept
    /// scripts sit on top of the engine's memory cap; past ``compiledCacheBytes`` of them (a thread
    /// that has run many distinct scripts) they are all dropped and compiled again when needed.
    func compile(_ key: LuaCompiledScriptKey, location: LuaScriptLocation) throws(InputError) -> Int32 {
        if let compiled = compiledScripts[key] { return compiled }
        if abrl_engine_cache_bytes(handle) > compiledCacheBytes {
            let refs = Array(compiledScripts.values)
            refs.withUnsafeBufferPointer { abrl_script_release(handle, $0.baseAddress, $0.count) }
            compiledScripts.removeAll()
        }
        var compiled: Int32 = 0
        let status = key.source.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                abrl_script_compile(handle, chars.baseAddress, chars.count, location.sourceName, &compiled)
            }
        }
        guard status == Int32(ABRL_OK) else { throw location.error(status: status, message: message, phase: "loading") }
        compiledScripts[key] = compiled
        return compiled
    }

    /// The compiled script of `script` in this engine, compiling it on first use.
    func compiledScript(for script: LuaScript) throws(InputError) -> Int32 {
        try compile(script.compiledKey, location: script.location)
    }

    /// Runs the compiled script's top level once (seed 0) and reads what it declares.
    func inspect(compiled: Int32, location: LuaScriptLocation, resources: LuaScriptResources) throws(InputError) -> LuaInspection {
        var result: UnsafeMutablePointer<abrl_inspection>?
        var host = resources.host
        let status = abrl_script_inspect(handle, compiled, &host, &result)
        guard status == Int32(ABRL_OK), let inspection = result else {
            throw location.error(status: status, message: message, phase: "loading")
        }
        defer { abrl_inspection_free(inspection) }
        let record = inspection.pointee
        var params: [LuaParam] = []
        for index in 0..<record.param_count {
            let param = record.params[index]
            let key = String(cString: record.text + param.key_offset)
            let value: LuaParamValue
            switch param.type {
            case Int32(ABRL_PARAM_INTEGER): value = .integer(Int(param.integer))
            case Int32(ABRL_PARAM_BOOLEAN): value = .boolean(param.boolean != 0)
            case Int32(ABRL_PARAM_STRING):
                let bytes = UnsafeRawBufferPointer(start: record.text + param.string_offset, count: param.string_length)
                value = .string(String(decoding: bytes, as: UTF8.self))
            default: value = .number(param.number)
            }
            params.append(LuaParam(key: key, value: value, integerOnly: param.integer_only != 0))
        }
        return LuaInspection(
            name: record.name.map { String(cString: $0) },
            description: record.description.map { String(cString: $0) },
            form: record.form == Int32(ABRL_FORM_SEED) ? .questions : .session,
            params: params.sorted { $0.key < $1.key }
        )
    }
}
