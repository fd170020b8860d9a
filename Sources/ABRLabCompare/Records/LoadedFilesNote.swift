import ABRLab
import ABRLabFormats
import ABRLabLua
import ABRLabResults
import Foundation

/// The files a run's code has loaded — each strategy row's script, modules, models and
/// parameter files, and a Lua QoE model's script and modules — kept as a note beside the partial
/// results. A resumed run checks every one against the file as it is now before it continues:
/// the fingerprint covers what is known before the run, but a module a session first loads by a
/// name only running code knows is not, and one result must never mix two versions of the code.
public final class LoadedFilesNote {
    /// One strategy row or the QoE model: its fixed files, and the resources its code reads.
    private struct Owner {
        let key: String
        /// The script itself and the files parameters name: known once the plan is.
        let fixed: [LoadedFile]
        let resources: (any ScriptResources)?

        func files() -> [LoadedFile] { fixed + (resources?.loadedFiles ?? []) }
    }

    public static let noteName = "loaded-files.json"
    private let owners: [Owner]
    /// The distinct resources of the owners: the rows of a sweep share their script's.
    private let resources: [any ScriptResources]
    /// Files the resources had read when the last note was written; written again only when
    /// this grows.
    private var noted = -1
    /// Files the resources had read before any session: a note of these only names a changed
    /// file that the fingerprint catches anyway, so it needs no sync of its own.
    private let planned: Int

    public init(strategies: [StrategyDescriptor], qoe: (any SegmentQoEModel)?) {
        // The rows of a sweep share their script and often their parameter files: each is read once.
        var hashed: [String: [LoadedFile]] = [:]
        func fixed(_ path: String) -> [LoadedFile] {
            if let file = hashed[path] { return file }
            let file = Self.fixedFile(path)
            hashed[path] = file
            return file
        }
        var owners = strategies.map { strategy in
            let script = strategy.source == "native" ? [] : fixed(strategy.source)
            return Owner(key: "strategy \(strategy.id)", fixed: script + strategy.namedFiles.flatMap(fixed), resources: strategy.resources)
        }
        if let qoe = qoe as? LuaQoEModel {
            owners.append(Owner(key: "qoe", fixed: fixed(qoe.path), resources: qoe.files))
        }
        self.owners = owners
        var seen = Set<ObjectIdentifier>()
        resources = owners.compactMap(\.resources).filter { seen.insert(ObjectIdentifier($0)).inserted }
        planned = resources.reduce(0) { $0 + $1.plannedFiles.count }
    }

    private static func fixedFile(_ path: String) -> [LoadedFile] {
        RunInputs.File(path: path).map { [LoadedFile(role: .file, name: path, path: path, byteCount: $0.bytes, sha256: $0.sha256)] } ?? []
    }

    /// Checks the files the interrupted run in `directory` noted against the files now, reading
    /// those this run has not read yet as its sessions would (so it then uses exactly those
    /// bytes). The first that differs, or cannot be read any more, is one error naming it. A run
    /// whose plan is of another format (another release's) is not checked: ``ResumableResults``
    /// refuses it for what it is, whatever became of the files it loaded.
    public func checkInterruptedRun(in directory: URL) throws(InputError) {
        guard let identity = ResumableResults.interruptedIdentity(in: directory), identity.hasPrefix(PlanFingerprint.formatLine + "\n"),
              let data = ResumableResults.note(Self.noteName, in: directory),
              let recorded = try? JSONDecoder().decode([String: [LoadedFile]].self, from: data) else { return }
        let partial = directory.appendingPathComponent(ResumableResults.partialFolderName).path
        for owner in owners {
            for file in recorded[owner.key] ?? [] {
                let now: Result<LoadedFile, InputError> = switch file.role {
                case .file:
                    Self.fixedFile(file.path).first.map { .success($0) } ?? .failure(InputError(file: file.path, "no such file"))
                case .module, .model:
                    owner.resources?.load(file) ?? .failure(InputError(file: file.path, "is not read by this run's code"))
                }
                switch now {
                case .success(let current) where current.sha256 == file.sha256:
                    continue
                case .success(let current):
                    throw InputError(
                        file: file.path,
                        mentioning: "changed since the interrupted run in \(partial) loaded it (sha256 \(file.sha256.prefix(12)) then, \(current.sha256.prefix(12)) now); "
                            + "resuming would mix two versions in one result: restore it, or run without \(Setting.resume) to start over"
                    )
                case .failure(let error):
                    throw InputError(
                        file: file.path,
                        mentioning: "the interrupted run in \(partial) loaded this file, which cannot be read the same way now (\(error.message)); "
                            + "restore it, or run without \(Setting.resume) to start over"
                    )
                }
            }
        }
    }

    /// Writes the note into `results`' partial folder when the code has loaded files since the
    /// last one: before the chunk that used them is appended, and synced once it lists a file
    /// read at run time, so no checkpoint vouches for a chunk before the note covers it.
    public func record(in results: ResumableResults) throws(InputError) {
        let count = resources.reduce(0) { $0 + $1.loadedFiles.count }
        guard count != noted else { return }
        let note = Dictionary(owners.map { ($0.key, $0.files()) }) { first, _ in first }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(note) else { return }
        try results.writeNote(Self.noteName, [UInt8](data), synced: count > planned)
        noted = count
    }
}
