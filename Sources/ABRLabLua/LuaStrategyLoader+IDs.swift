import ABRLab
import Foundation

/// Strategy ids relative to the strategies root, and the scripts of a whole tree of folders.
extension LuaStrategyLoader {
    /// Folders that hold modules for `require`, never strategies.
    public static let moduleFolderName = "lib"

    /// The id of the script at `path`: its path under ``root`` without `.lua` when it lies
    /// under the root (symbolic links and `..` resolved), else its file name without `.lua`.
    public func id(forPath path: String) -> String {
        guard let root, let relative = Self.relativePath(of: path, under: root) else { return Self.strategyID(forPath: path) }
        return relative.hasSuffix(".lua") ? String(relative.dropLast(4)) : relative
    }

    /// Every strategy in `folder` and in its sub-folders, sorted: the folder's own first, then
    /// each sub-folder's, by id. Sub-folders named `lib` (modules) or starting with `_` or `.`
    /// are not entered; files are taken as ``scriptPaths(folder:)`` takes them.
    public func discoverTree(folder: String) throws(InputError) -> [LuaScript] {
        var scripts: [LuaScript] = []
        for path in try scriptTree(folder: folder) {
            let script = try LuaScript(path: path, id: id(forPath: path), bytes: Self.read(path), limits: limits, verbose: verbose)
            scripts.append(try overrides[script.id].map { values throws(InputError) in try script.overriding(values) } ?? script)
        }
        let depth = { (script: LuaScript) in script.path.split(separator: "/").count }
        return scripts.sorted { (depth($0), $0.id) < (depth($1), $1.id) }
    }

    /// The paths ``discoverTree(folder:)`` loads, without loading them.
    public func scriptTree(folder: String) throws(InputError) -> [String] {
        var visited: Set<String> = []
        return try scriptTree(folder: folder, visited: &visited)
    }

    private func scriptTree(folder: String, visited: inout Set<String>) throws(InputError) -> [String] {
        // A link back up the tree is entered once.
        guard visited.insert(Self.canonicalPath(folder)).inserted else { return [] }
        var paths = try scriptPaths(folder: folder)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name != Self.moduleFolderName && !name.hasPrefix("_") && !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + name, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            paths += try scriptTree(folder: base + name, visited: &visited)
        }
        return paths
    }

    /// `path` relative to `root` when it lies inside it, both made absolute and resolved.
    static func relativePath(of path: String, under root: String) -> String? {
        let folder = canonicalPath(root)
        let file = canonicalPath(path)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard file.hasPrefix(prefix), file.count > prefix.count else { return nil }
        return String(file.dropFirst(prefix.count))
    }

    /// `path` made absolute, with `.`, `..` and symbolic links resolved: two paths of one file
    /// give the same text.
    public static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
