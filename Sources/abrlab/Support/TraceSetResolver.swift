import ABRLab
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns `--traces` arguments (files, folders searched recursively, glob patterns) into loaded
/// traces in a fixed order, so results never depend on how the files were found.
struct TraceSetResolver {
    var format: TraceFormat?
    var options = TraceLoadOptions()

    /// Files a folder contributes: every regular, non-hidden file except documentation.
    static func isTraceCandidate(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        if name.hasPrefix(".") || name.hasPrefix("README") { return false }
        return !["md", "ipynb", "py", "lua", "swift", "sh"].contains(url.pathExtension.lowercased())
    }

    func resolveFiles(_ arguments: [String]) throws(InputError) -> [URL] {
        var files: [URL] = []
        for argument in arguments {
            if argument.contains(where: { "*?[".contains($0) }) {
                let matches = Self.glob(argument)
                guard !matches.isEmpty else { throw InputError(file: argument, "no file matches this pattern") }
                for match in matches { try collect(URL(fileURLWithPath: match), into: &files) }
            } else {
                try collect(URL(fileURLWithPath: argument), into: &files)
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Loads every trace, names them uniquely and sorts them by name; `files` holds the file of
    /// each trace, in the same order.
    func load(_ arguments: [String]) throws(InputError) -> (traces: [NetworkTrace], warnings: [InputWarning], files: [URL]) {
        let files = try resolveFiles(arguments)
        guard !files.isEmpty else { throw InputError(file: arguments.joined(separator: " "), "the trace set is empty") }
        var loaded: [(url: URL, trace: NetworkTrace)] = []
        var warnings: [InputWarning] = []
        for url in files {
            let result = try TraceLoader.load(url, format: format, options: options)
            loaded.append((url, result.trace))
            warnings += result.warnings
        }
        // Same file name in two folders: prefix the folder so every session stays identifiable.
        let counts = Dictionary(grouping: loaded, by: { $0.trace.name }).mapValues(\.count)
        var named = loaded.map { entry -> (url: URL, trace: NetworkTrace) in
            var trace = entry.trace
            if counts[trace.name, default: 0] > 1 {
                trace.name = entry.url.deletingLastPathComponent().lastPathComponent + "/" + trace.name
            }
            return (entry.url, trace)
        }
        named.sort { $0.trace.name < $1.trace.name }
        for (first, second) in zip(named, named.dropFirst()) where first.trace.name == second.trace.name {
            throw InputError(file: first.trace.name, "two traces have this name; rename one of them")
        }
        return (named.map(\.trace), warnings, named.map(\.url))
    }

    private func collect(_ url: URL, into files: inout [URL]) throws(InputError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(file: url.relativePath, "no such file or folder")
        }
        guard isDirectory.boolValue else {
            files.append(url)
            return
        }
        guard let enumerator = FileManager.default.enumerator(
            at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        ) else { throw InputError(file: url.relativePath, "cannot read the folder") }
        var found: [URL] = []
        for case let file as URL in enumerator {
            // Symbolic links count as the files they point to.
            let isRegular = (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
            if isRegular, Self.isTraceCandidate(file) { found.append(file) }
        }
        files += found.sorted { $0.path < $1.path }
    }

    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }.sorted()
    }
}
