import ABRLab
import ABRLabFormats
import Foundation

extension StrategyDescriptor {
    /// Existing files the strategy's text parameters name (`pensieve-native`'s `model`): it
    /// reads them besides its source.
    public var namedFiles: [String] {
        var isDirectory: ObjCBool = false
        return params.compactMap { param -> String? in
            guard case .string(let path) = param.value, !path.isEmpty,
                  FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return path
        }
    }

    /// The files known before any session runs, which the plan's fingerprint covers: a
    /// script's planned modules and models, and the files its parameters name (hashed now).
    public func plannedInputs() -> [LoadedFile] {
        Self.merging(resources?.plannedFiles ?? [], namedInputs())
    }

    /// Every file read so far: a script's modules and models, and the files its parameters name.
    public func loadedInputs() -> [LoadedFile] {
        Self.merging(resources?.loadedFiles ?? [], namedInputs())
    }

    private func namedInputs() -> [LoadedFile] {
        namedFiles.compactMap { path in
            RunInputs.File(path: path).map { LoadedFile(role: .file, name: path, path: path, byteCount: $0.bytes, sha256: $0.sha256) }
        }
    }

    /// Each path once (what a script loaded comes first), in the order of their absolute paths,
    /// as `run.json` lists them.
    private static func merging(_ loaded: [LoadedFile], _ named: [LoadedFile]) -> [LoadedFile] {
        var seen = Set<String>()
        return (loaded + named)
            .map { (absolute: RunInputs.File.absolute($0.path), file: $0) }
            .filter { seen.insert($0.absolute).inserted }
            .sorted { $0.absolute < $1.absolute }
            .map(\.file)
    }
}
