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

    /// A trace file and the name its sessions carry.
    struct Entry: Equatable {
        let url: URL
        let name: String
    }

    /// The trace files with their names, sorted by name, without reading them: a file's name
    /// without `.json`/`.csv`, prefixed by its folder when two files share a name.
    func entries(_ arguments: [String]) throws(InputError) -> [Entry] {
        let files = try resolveFiles(arguments)
        guard !files.isEmpty else { throw InputError(file: arguments.joined(separator: " "), "the trace set is empty") }
        let names = files.map { TraceLoader.traceName(forFile: $0.path) }
        let counts = Dictionary(grouping: names, by: { $0 }).mapValues(\.count)
        let entries = zip(files, names).map { url, name in
            // Same file name in two folders: prefix the folder so every session stays identifiable.
            Entry(url: url, name: counts[name, default: 0] > 1 ? url.deletingLastPathComponent().lastPathComponent + "/" + name : name)
        }.sorted { $0.name < $1.name }
        for (first, second) in zip(entries, entries.dropFirst()) where first.name == second.name {
            throw InputError(file: first.name, "two traces have this name; rename one of them")
        }
        return entries
    }

    /// Loads every trace, names them uniquely and sorts them by name; `files` holds the file of
    /// each trace, in the same order.
    func load(_ arguments: [String]) throws(InputError) -> (traces: [NetworkTrace], warnings: [InputWarning], files: [URL]) {
        try load(entries(arguments))
    }

    /// Loads the given entries, in their order, under their names.
    func load<Entries: Sequence<Entry>>(
        _ entries: Entries
    ) throws(InputError) -> (traces: [NetworkTrace], warnings: [InputWarning], files: [URL]) {
        var traces: [NetworkTrace] = []
        var warnings: [InputWarning] = []
        var files: [URL] = []
        for entry in entries {
            let result = try TraceLoader.load(entry.url, format: format, options: options)
            var trace = result.trace
            trace.name = entry.name
            traces.append(trace)
            warnings += result.warnings
            files.append(entry.url)
        }
        return (traces, warnings, files)
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
            // Symbolic links count as the files they point to; one stat() per file keeps large sets fast.
            var status = stat()
            let isRegular = stat(file.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
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
