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

    /// Files a folder contributes, by name: every regular, non-hidden file except documentation and code.
    static func isTraceCandidate(name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("README") { return false }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return true }
        return !["md", "ipynb", "py", "lua", "swift", "sh"].contains(name[name.index(after: dot)...].lowercased())
    }

    func resolveFiles(_ arguments: [String]) throws(InputError) -> [URL] {
        try resolve(arguments).map(\.url)
    }

    /// The files of `arguments` in argument order (a folder's files sorted by path), each once,
    /// with its standardized absolute path, the key that tells two spellings of one file apart.
    private func resolve(_ arguments: [String]) throws(InputError) -> [Located] {
        var files: [Located] = []
        for argument in arguments {
            if argument.contains(where: { "*?[".contains($0) }) {
                let matches = Self.glob(argument)
                guard !matches.isEmpty else { throw InputError(file: argument, "no file matches this pattern") }
                for match in matches { try collect(match, into: &files) }
            } else {
                try collect(argument, into: &files)
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0.path).inserted }
    }

    /// A file as the arguments name it. The URL is made only when asked for: every shard lists
    /// every trace of its plan but opens only its own, and a URL costs more than the listing.
    struct Located: Equatable {
        /// The argument, or a folder argument joined with the file's path inside it.
        let spelled: String
        /// The working folder for files found in folders, read once per folder.
        let base: URL?
        /// The file's standardized absolute path, as `run.json` records it.
        let path: String

        var url: URL { URL(fileURLWithPath: spelled, isDirectory: false, relativeTo: base) }
    }

    /// A trace file and the name its sessions carry.
    struct Entry: Equatable {
        let file: Located
        let name: String
        var url: URL { file.url }
        /// The file's standardized absolute path, as `run.json` records it.
        var path: String { file.path }
    }

    /// The trace files with their names, sorted by name, without reading them: a file's name
    /// without `.json`/`.csv`, prefixed by its folder when two files share a name.
    func entries(_ arguments: [String]) throws(InputError) -> [Entry] {
        let files = try resolve(arguments)
        guard !files.isEmpty else { throw InputError(file: arguments.joined(separator: " "), "the trace set is empty") }
        let names = files.map { TraceLoader.traceName(forFile: $0.path) }
        let counts = Dictionary(grouping: names, by: { $0 }).mapValues(\.count)
        let entries = zip(files, names).map { file, name in
            // Same file name in two folders: prefix the folder so every session stays identifiable.
            Entry(file: file, name: counts[name, default: 0] > 1 ? file.url.deletingLastPathComponent().lastPathComponent + "/" + name : name)
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

    private func collect(_ argument: String, into files: inout [Located]) throws(InputError) {
        let url = URL(fileURLWithPath: argument)
        var status = stat()
        guard stat(argument, &status) == 0 else { throw InputError(file: url.relativePath, "no such file or folder") }
        let root = url.standardizedFileURL.path
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            files.append(Located(spelled: argument, base: nil, path: root))
            return
        }
        // readdir with one stat() only where the entry type needs it: a folder of thousands of
        // traces is listed by every shard of a run, so listing must cost little next to a session.
        var found: [String] = []
        guard Self.walk(argument, relative: "", into: &found) else { throw InputError(file: url.relativePath, "cannot read the folder") }
        let prefix = argument.hasSuffix("/") ? argument : argument + "/"
        let rootPrefix = root.hasSuffix("/") ? root : root + "/"
        // Relative to the working folder read once, not once per file, as a plain file URL would.
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        files += found.sorted().map { Located(spelled: prefix + $0, base: base, path: rootPrefix + $0) }
    }

    /// Appends the trace candidates under `folder/relative` as paths relative to `folder`,
    /// skipping hidden entries; symbolic links count as the files they point to and are not
    /// followed into folders.
    private static func walk(_ folder: String, relative: String, into found: inout [String]) -> Bool {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let child = relative.isEmpty ? name : relative + "/" + name
            var type = Int32(entry.pointee.d_type)
            if type == DT_UNKNOWN || type == DT_LNK {
                var status = stat()
                let follow = type == DT_LNK
                guard (follow ? stat(path + "/" + name, &status) : lstat(path + "/" + name, &status)) == 0 else { continue }
                let mode = status.st_mode & S_IFMT
                type = mode == S_IFREG ? Int32(DT_REG) : (mode == S_IFDIR && !follow ? Int32(DT_DIR) : Int32(DT_UNKNOWN))
            }
            if type == DT_DIR {
                _ = walk(folder, relative: child, into: &found)
            } else if type == DT_REG, isTraceCandidate(name: name) {
                found.append(child)
            }
        }
        return true
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
