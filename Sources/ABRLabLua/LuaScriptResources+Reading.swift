import ABRLab
import ABRLabFormats
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LuaScriptResources {
    /// Where a file of the folder really is, or why it cannot be read there.
    enum Resolution {
        /// Its real path, inside the folder.
        case inside(String)
        /// Its real path lies outside the folder (a link leads out).
        case outside(String)
        case failed(InputFile.ReadFailure)
    }

    /// `path` with every link resolved (realpath).
    static func realPath(_ path: String) -> Result<String, InputFile.ReadFailure> {
        guard let resolved = realpath(path, nil) else {
            return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno))))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// Resolves `relative` in the folder, links included, and checks that the file it leads to
    /// lies inside the folder's real path: a link may point anywhere inside the folder, never out.
    func resolve(_ relative: String) -> Resolution {
        let root: String
        switch realFolder {
        case .success(let path): root = path
        case .failure(let failure): return .failed(failure)
        }
        switch Self.realPath(path(relative)) {
        case .failure(let failure): return .failed(failure)
        case .success(let real):
            let inside = root == "/" || real == root || real.hasPrefix(root + "/")
            return inside ? .inside(real) : .outside(real)
        }
    }

    /// The folder in messages: `the script's folder Strategies`.
    private var folderDescription: String {
        folder.isEmpty ? "the script's folder (the working folder)" : "the script's folder \(folder)"
    }

    /// Module `name`'s text and file; an error names the script, its message the module's file.
    func readModule(_ name: String) throws(InputError) -> (LuaModuleSource, LoadedFile) {
        guard let label = Self.moduleLabel(name) else {
            throw InputError(file: script, "module name '\(name)' is not allowed")
        }
        let file = path(label)
        let real: String
        switch resolve(label) {
        case .inside(let path): real = path
        case .outside(let target):
            throw InputError(file: script, "module '\(name)': \(file) leads to \(target), outside \(folderDescription); modules must lie inside it")
        case .failed(let failure): throw moduleError(name, file: file, failure)
        }
        switch InputFile.regularFile(atPath: real, limit: Self.maxModuleBytes) {
        case .success(let bytes):
            return (LuaModuleSource(label: label, source: LuaScript.prefixed(bytes)), LoadedFile(role: .module, name: name, path: file, bytes: bytes))
        case .failure(let failure): throw moduleError(name, file: file, failure)
        }
    }

    private func moduleError(_ name: String, file: String, _ failure: InputFile.ReadFailure) -> InputError {
        switch failure {
        case .missing: InputError(file: script, "module '\(name)' not found: no file \(file)")
        case .folder: InputError(file: script, "module '\(name)': \(file) is a folder, not a file")
        case .notRegularFile: InputError(file: script, "module '\(name)': \(file) is not a regular file")
        case .tooLarge(let size):
            InputError(file: script, "module '\(name)': \(file) is larger than \(Self.maxModuleBytes >> 20) MiB" + (size.map { " (\(InputFile.sizeText($0)))" } ?? ""))
        case .unreadable(let reason): InputError(file: script, "module '\(name)': cannot read \(file) (\(reason))")
        }
    }

    /// The network in the model file at `relativePath`; an error names the script, its message the model's file.
    func readModel(_ relativePath: String) throws(InputError) -> (ActorNetwork, LoadedFile) {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !parts.contains(".."), !parts.contains(""),
              !relativePath.contains("\\"), !relativePath.utf8.contains(0) else {
            throw InputError(file: script, "abrlab.model: '\(relativePath)' is not a path inside the script's folder (relative, no '..')")
        }
        let file = path(relativePath)
        let real: String
        switch resolve(relativePath) {
        case .inside(let path): real = path
        case .outside(let target):
            throw InputError(file: script, "abrlab.model: \(file) leads to \(target), outside \(folderDescription); models must lie inside it")
        case .failed(.missing): throw InputError(file: script, "abrlab.model: \(file): no such file")
        case .failed(.unreadable(let reason)): throw InputError(file: script, "abrlab.model: \(file): cannot read the file (\(reason))")
        case .failed: throw InputError(file: script, "abrlab.model: \(file): cannot read the file")
        }
        do {
            let bytes = try SafetensorsFile.bytes(atPath: real, named: file)
            let network = try ActorNetwork(tensors: SafetensorsFile(bytes: bytes, file: file))
            return (network, LoadedFile(role: .model, name: relativePath, path: file, bytes: bytes))
        } catch {
            throw InputError(file: script, "abrlab.model: \(error.description)")
        }
    }
}
