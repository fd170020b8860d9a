import ABRLab
import Foundation

/// Loads Lua strategy scripts: one file, or every strategy in a folder.
public struct LuaStrategyLoader: Sendable {
    public var limits: LuaLimits
    /// Tracebacks in runtime errors, and `print` to stderr.
    public var verbose: Bool
    /// Parameter overrides by strategy id, then key; values are text, read with the type of
    /// each parameter's default. Ids of scripts not loaded are ignored here.
    public var overrides: [String: [String: String]]
    /// The strategies root: a script anywhere under it is known by its path relative to it
    /// without `.lua` (`sabre/bola` for `ROOT/sabre/bola.lua`), however it is named; a script
    /// elsewhere, or any script when this is nil, by its file name (``id(forPath:)``).
    public var root: String?

    public init(
        limits: LuaLimits = .default, verbose: Bool = false, overrides: [String: [String: String]] = [:], root: String? = nil
    ) {
        self.limits = limits
        self.verbose = verbose
        self.overrides = overrides
        self.root = root
    }

    /// Reads, syntax-checks and inspects one script, then applies its overrides.
    public func load(path: String) throws(InputError) -> LuaScript {
        let script = try LuaScript(path: path, id: id(forPath: path), bytes: Self.read(path), limits: limits, verbose: verbose)
        guard let values = overrides[script.id] else { return script }
        return try script.overriding(values)
    }

    /// Every strategy in `folder` (not its subfolders), sorted by id. Files whose name starts
    /// with `_` (templates, helpers) and annotation files (first line `---@meta`) are skipped.
    public func discover(folder: String) throws(InputError) -> [LuaScript] {
        var scripts: [LuaScript] = []
        for path in try scriptPaths(folder: folder) {
            let script = try LuaScript(path: path, id: id(forPath: path), bytes: Self.read(path), limits: limits, verbose: verbose)
            scripts.append(try overrides[script.id].map { values throws(InputError) in try script.overriding(values) } ?? script)
        }
        return scripts.sorted { $0.id < $1.id }
    }

    /// The paths of the strategy scripts `discover` loads from `folder`, in name order, without
    /// loading them.
    public func scriptPaths(folder: String) throws(InputError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw InputError(file: folder, "cannot list the folder")
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var paths: [String] = []
        for name in names.sorted() where name.hasSuffix(".lua") && !name.hasPrefix("_") && !name.hasPrefix(".") {
            let path = base + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard !Self.isAnnotationFile(try Self.read(path)) else { continue }
            paths.append(path)
        }
        return paths
    }

    /// The file name of the script at `path` without `.lua`: its id outside a root.
    public static func strategyID(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".lua") ? String(name.dropLast(4)) : name
    }

    /// Whether a file is a LuaCATS annotation file: its first line is `---@meta`, optionally
    /// followed by a name.
    public static func isAnnotationFile(_ bytes: [UInt8]) -> Bool {
        let firstLine = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        let text = String(decoding: firstLine, as: UTF8.self)
        guard text.hasPrefix("---@meta") else { return false }
        return text.dropFirst(8).first.map { $0 == " " || $0 == "\t" } ?? true
    }

    static func read(_ path: String) throws(InputError) -> [UInt8] {
        [UInt8](try InputFile.read(URL(fileURLWithPath: path)))
    }
}
