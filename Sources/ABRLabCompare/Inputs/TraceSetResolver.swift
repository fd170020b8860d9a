import ABRLab
import ABRLabFormats
import Foundation
#if canImport(Glibc)
import Glibc
import ABRLabDatasets
#endif

/// Turns `--traces` arguments (files, folders searched recursively, glob patterns) into loaded
/// traces in a fixed order, so results never depend on how the files were found.
public struct TraceSetResolver {
    public var format: TraceFormat?
    public var options = TraceLoadOptions()

    public init(format: TraceFormat? = nil, options: TraceLoadOptions = TraceLoadOptions()) {
        self.format = format
        self.options = options
    }

    /// Files a folder contributes, by name: every regular, non-hidden file except documentation and code.
    public static func isTraceCandidate(name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("README") { return false }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return true }
        return !["md", "ipynb", "py", "lua", "swift", "sh"].contains(name[name.index(after: dot)...].lowercased())
    }

    public func resolveFiles(_ arguments: [String]) throws(InputError) -> [URL] {
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
    public struct Located: Equatable {
        /// The argument, or a folder argument joined with the file's path inside it, as text
        /// (``FileNameText``: bytes outside UTF-8 escaped).
        let spelled: String
        /// The working folder for files found in folders, read once per folder.
        let base: URL?
        /// The file's standardized absolute path, as `run.json` records it (as text, like `spelled`).
        let path: String
        /// The bytes of `spelled` when the text escapes some (a name that is not UTF-8): the file
        /// is opened by them, as no `String` path reaches it.
        var rawSpelled: [UInt8]? = nil

        var url: URL { URL(fileURLWithPath: spelled, isDirectory: false, relativeTo: base) }
    }

    /// A trace file and the name its sessions carry.
    public struct Entry: Equatable {
        let file: Located
        let name: String
        var url: URL { file.url }
        /// The file's standardized absolute path, as `run.json` records it.
        var path: String { file.path }
    }

    /// The trace files with their names, sorted by name, without reading them: a file's name
    /// without `.json`/`.csv`, prefixed by its folder when two files share a name.
    public func entries(_ arguments: [String]) throws(InputError) -> [Entry] {
        let files = try resolve(arguments)
        guard !files.isEmpty else { throw InputError(file: arguments.joined(separator: " "), "the trace set is empty") }
        let names = files.map { TraceLoader.traceName(forFile: $0.path) }
        let counts = Dictionary(grouping: names, by: { $0 }).mapValues(\.count)
        let entries = zip(files, names).map { file, name in
            // Same file name in two folders: prefix the folder so every session stays identifiable.
            Entry(file: file, name: counts[name, default: 0] > 1 ? file.url.deletingLastPathComponent().lastPathComponent + "/" + name : name)
        }.sorted { $0.name < $1.name }
        for (first, second) in zip(entries, entries.dropFirst()) where first.name == second.name {
            throw InputError(file: first.file.spelled, "has the trace name '\(first.name)', as \(second.file.spelled) has; rename one of them")
        }
        return entries
    }

    /// Loads every trace, names them uniquely and sorts them by name; `files` holds the file of
    /// each trace, in the same order.
    public func load(_ arguments: [String]) throws(InputError) -> (traces: [NetworkTrace], warnings: [InputWarning], files: [URL]) {
        try load(entries(arguments))
    }

    /// Loads the given entries, in their order, under their names, parsing on up to `threads`
    /// threads. A failure is the first bad entry's in their order, whatever `threads`.
    public func load<Entries: Collection<Entry>>(
        _ entries: Entries, threads: Int = 1
    ) throws(InputError) -> (traces: [NetworkTrace], warnings: [InputWarning], files: [URL]) {
        let entries = Array(entries)
        let loaded = Parallel.map(entries.count, threads: threads) { index in
            Result { () throws(InputError) -> LoadedTrace in try load(entries[index]) }
        }
        var traces: [NetworkTrace] = []
        var warnings: [InputWarning] = []
        traces.reserveCapacity(entries.count)
        for (entry, result) in zip(entries, loaded) {
            let result = try result.get()
            var trace = result.trace
            trace.name = entry.name
            traces.append(trace)
            warnings += result.warnings
        }
        return (traces, warnings, entries.map(\.url))
    }

    private func load(_ entry: Entry) throws(InputError) -> LoadedTrace {
        if let raw = entry.file.rawSpelled {
            let data = try InputFile.read(pathBytes: raw, file: entry.file.spelled)
            return try TraceLoader.parse(String(decoding: data, as: UTF8.self), file: entry.file.spelled, format: format, options: options)
        }
        return try TraceLoader.load(entry.url, format: format, options: options)
    }

    /// Adds the file `argument` names, or the trace candidates of the folder it names.
    private func collect(_ argument: String, into files: inout [Located]) throws(InputError) {
        try collect(FileNameText(Self.path(argument).utf8), into: &files)
    }

    /// The path a trace argument names: a shipped set's folder (`3g`), a fetched dataset's
    /// (`sabre/3g`), or the argument itself.
    public static func path(_ argument: String) throws(InputError) -> String {
        if let folder = Defaults.shippedTraceSet(argument) { return folder }
        return try DatasetInput.path(argument)
    }

    /// Adds the file `argument` names, or the trace candidates of the folder it names; the
    /// argument's bytes need not be UTF-8 (a glob's match).
    private func collect(_ argument: FileNameText, into files: inout [Located]) throws(InputError) {
        let bytes = argument.rawBytes ?? Array(argument.text.utf8)
        // An empty path would be read as the working folder.
        guard !bytes.isEmpty else { throw InputError(setting: .traces, "an empty path names no trace file or folder") }
        let url = URL(fileURLWithPath: argument.text)
        var status = stat()
        guard Self.withPath(bytes, { stat($0, &status) }) == 0 else { throw InputError(file: url.relativePath, "no such file or folder") }
        let root = url.standardizedFileURL.path
        let mode = status.st_mode & S_IFMT
        guard mode == S_IFDIR else {
            // A FIFO would block the run until something writes to it, and a trace is read
            // twice (hashed, then parsed): only regular files are traces.
            guard mode == S_IFREG else { throw InputError(file: url.relativePath, Self.specialFileMessage) }
            files.append(Located(spelled: argument.text, base: nil, path: root, rawSpelled: argument.rawBytes))
            return
        }
        // readdir with one stat() only where the entry type needs it: a folder of thousands of
        // traces is listed by every shard of a run, so listing must cost little next to a session.
        var found: [[UInt8]] = []
        guard Self.walk(bytes, relative: [], into: &found) else { throw InputError(file: url.relativePath, "cannot read the folder") }
        let slash = UInt8(ascii: "/")
        let prefix = bytes.last == slash ? bytes : bytes + [slash]
        let textPrefix = argument.text.hasSuffix("/") ? argument.text : argument.text + "/"
        let rootPrefix = root.hasSuffix("/") ? root : root + "/"
        // Relative to the working folder read once, not once per file, as a plain file URL would.
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        files += found.map { relative in
            let name = FileNameText(relative)
            let raw = argument.rawBytes != nil || name.rawBytes != nil ? prefix + relative : nil
            return Located(spelled: textPrefix + name.text, base: base, path: rootPrefix + name.text, rawSpelled: raw)
        }.sorted { $0.spelled < $1.spelled }
    }

    private static let specialFileMessage = "is not a regular file (a FIFO, socket or device); traces are read from files"

    /// Refuses a FIFO, socket or device named as a trace: opening a FIFO blocks until something
    /// writes to it. Missing files and folders are left to the loader, which names them.
    public static func refuseSpecialFile(_ path: String) throws(InputError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let mode = status.st_mode & S_IFMT
        guard mode == S_IFREG || mode == S_IFDIR else {
            throw InputError(file: URL(fileURLWithPath: path).relativePath, specialFileMessage)
        }
    }

    /// Calls `body` with `bytes` as a C path.
    private static func withPath<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// Appends the trace candidates under `folder/relative` as paths relative to `folder`, in
    /// the bytes the file system gives (names need not be UTF-8), skipping hidden entries;
    /// symbolic links count as the files they point to and are not followed into folders.
    private static func walk(_ folder: [UInt8], relative: [UInt8], into found: inout [[UInt8]]) -> Bool {
        let slash = UInt8(ascii: "/")
        let path = relative.isEmpty ? folder : folder + [slash] + relative
        guard let directory = withPath(path, { opendir($0) }) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.first != UInt8(ascii: ".") else { continue }
            let child = relative.isEmpty ? name : relative + [slash] + name
            var type = Int32(entry.pointee.d_type)
            if type == DT_UNKNOWN || type == DT_LNK {
                var status = stat()
                let follow = type == DT_LNK
                guard withPath(path + [slash] + name, { follow ? stat($0, &status) : lstat($0, &status) }) == 0 else { continue }
                let mode = status.st_mode & S_IFMT
                type = mode == S_IFREG ? Int32(DT_REG) : (mode == S_IFDIR && !follow ? Int32(DT_DIR) : Int32(DT_UNKNOWN))
            }
            if type == DT_DIR {
                _ = walk(folder, relative: child, into: &found)
            } else if type == DT_REG, isTraceCandidate(name: String(decoding: name, as: UTF8.self)) {
                found.append(child)
            }
        }
        return true
    }

    public static func glob(_ pattern: String) -> [FileNameText] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { FileNameText(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }.sorted { $0.text < $1.text }
    }
}
