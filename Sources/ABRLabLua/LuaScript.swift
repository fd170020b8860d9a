import ABRLab

/// A Lua strategy script, syntax-checked and inspected once: its id, name, description,
/// parameters and form. It is a value; sessions compile it once per worker thread.
public struct LuaScript: Sendable {
    /// Which protocol the script speaks.
    public enum Form: Sendable, Equatable {
        /// `choose(ctx)` returning a 1-based level, with optional `setup` and `on_download`.
        case session
        /// The question form's `initial_bitrate`, `should_upgrade` and `should_downgrade`
        /// (bits per second), played through `BitrateStrategySession`.
        case questions
    }

    /// The file name without `.lua` (`Strategies/robust_mpc.lua` is `robust_mpc`), or the path
    /// under the loader's root (``LuaStrategyLoader/root``): `sabre/bola`.
    public let id: String
    public var path: String { location.path }
    public let name: String
    public let description: String
    public let form: Form
    /// Parameters with the script's defaults, sorted by key.
    public let defaultParams: [LuaParam]
    /// Parameters after overrides, sorted by key; sessions see these.
    public private(set) var params: [LuaParam]
    public var limits: LuaLimits { location.limits }
    public let verbose: Bool

    let location: LuaScriptLocation
    /// The script's bytes behind a prefix that gives each run of the compiled script its own `_ENV`;
    /// names its compiled script in every thread's engine.
    let compiledKey: LuaCompiledScriptKey
    private(set) var packedParams: LuaPackedParams
    /// Modules and models of the script's folder, read once and shared by every copy and session.
    let resources: LuaScriptResources

    /// Checks and inspects a script in a throwaway engine: syntax, the returned table, its
    /// functions and params. The top level runs once here, under the limits.
    init(path: String, id: String? = nil, bytes: [UInt8], limits: LuaLimits, verbose: Bool) throws(InputError) {
        let fileName = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
        let id = id ?? LuaStrategyLoader.strategyID(forPath: path)
        let location = LuaScriptLocation(path: path, sourceLabel: String(fileName.prefix(48)), limits: limits, verbose: verbose)
        let compiledKey = LuaCompiledScriptKey(label: location.sourceLabel, source: Self.prefixed(bytes))
        let resources = LuaScriptResources(scriptPath: path)
        resources.preload(referencesIn: bytes)
        let engine: LuaEngine
        do { engine = try LuaEngine(limits: limits, verbose: verbose) } catch {
            throw InputError(file: path, error.message)
        }
        let compiled = try engine.compile(compiledKey, location: location)
        let inspection = try engine.inspect(compiled: compiled, location: location, resources: resources)
        resources.seal()
        self.id = id
        self.name = inspection.name ?? id
        self.description = inspection.description ?? ""
        self.form = inspection.form
        self.defaultParams = inspection.params
        self.params = inspection.params
        self.verbose = verbose
        self.location = location
        self.compiledKey = compiledKey
        self.resources = resources
        self.packedParams = LuaPackedParams(inspection.params)
    }

    /// This script with some parameters set from text (key → value), each read with its
    /// default's type; an unknown key or a value of the wrong type is an error.
    public func overriding(_ values: [String: String]) throws(InputError) -> LuaScript {
        var copy = self
        for key in values.keys.sorted() {
            let text = values[key] ?? ""
            guard let index = params.firstIndex(where: { $0.key == key }) else {
                let known = params.isEmpty ? "the script declares no parameters" : "parameters are " + params.map(\.key).joined(separator: ", ")
                throw InputError(file: path, "unknown parameter '\(key)' in \(id).\(key)=\(text); \(known)")
            }
            guard let value = defaultParams[index].parse(text) else {
                throw InputError(file: path, "parameter \(id).\(key) needs \(defaultParams[index].expectedType), not '\(text)'")
            }
            copy.params[index].value = value
        }
        copy.packedParams = LuaPackedParams(copy.params)
        return copy
    }

    /// `local _ENV = ...;` on the first line, so every call of the compiled script runs in the
    /// environment it is given and line numbers stay as written; a `#!` line becomes a comment.
    /// Modules and QoE scripts get the same prefix.
    static func prefixed(_ bytes: [UInt8]) -> [UInt8] {
        var source = Array("local _ENV = ...; ".utf8)
        if bytes.first == UInt8(ascii: "#") { source += Array("--".utf8) }
        return source + bytes
    }
}
