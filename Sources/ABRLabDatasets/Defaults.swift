import ABRLab
import Foundation

/// The shipped files that options default to (the strategies, the trace sets, the video), found
/// wherever abrlab runs: under `ABRLAB_HOME` when it is set, else in the working directory (the
/// repository, where the paths stay relative as before), else in the repository the binary was
/// built in (`.build/release/abrlab` lies inside it) or an installation beside it
/// (`PREFIX/bin/abrlab` with `PREFIX/share/abrlab/`).
public enum Defaults {
    public static let strategiesFolder = locate("Strategies")
    /// Pensieve's actor shipped with the strategies, `pensieve-native`'s default model.
    public static let pensieveModel = locate("Strategies/models/pensieve.safetensors")
    /// Genet's simulation model among the shared datasets, `genet`'s default model: not shipped
    /// (its repository grants no licence), used when it is there.
    public static let genetModel = locate("../shared/datasets/genet/genet_abr_nn_model_ep_9900_actor.safetensors")
    public static let traceSet = locate("Traces/default")
    /// The Twitch low-latency challenge's five patterns, for the live profile.
    public static let twitchTraces = locate("Traces/twitch-ll")
    public static let video = locate("Traces/video.json")

    /// The shipped trace set a bare name means (`3g`: the folder `Traces/3g`, found as the
    /// defaults are), when nothing of that name is here and it is no path or pattern; nil
    /// otherwise. compare's `--traces 3g` and Python's `traces="3g"` both read it.
    public static func shippedTraceSet(_ argument: String) -> String? {
        guard !argument.isEmpty, !argument.contains(where: { "/*?[".contains($0) }), !FileManager.default.fileExists(atPath: argument) else { return nil }
        let folder = locate("Traces/" + argument)
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }

    /// The setting that names the folder holding the shipped files.
    public static let homeVariable = "ABRLAB_HOME"

    /// Where `relative` is found: see the type's comment. A file found nowhere keeps its
    /// relative path, and ``requireExisting(_:setting:)`` says where it was looked for.
    public static func locate(
        _ relative: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = executableURL
    ) -> String {
        if let home = environment[homeVariable], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(relative).path
        }
        if FileManager.default.fileExists(atPath: relative) { return relative }
        return candidates(besides: executable).map { $0.appendingPathComponent(relative).path }
            .first { FileManager.default.fileExists(atPath: $0) } ?? relative
    }

    /// Checks that `path`, one of the defaults, exists; when it does not, one line says where it
    /// was looked for and how to point abrlab at it (`setting` names the setting that would).
    public static func requireExisting(
        _ path: String, setting: Setting, environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = executableURL
    ) throws(InputError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        if let home = environment[homeVariable], !home.isEmpty {
            throw InputError(file: path, mentioning: "not found under \(homeVariable) (\(home)); set \(homeVariable) to abrlab's repository, or name \(setting)")
        }
        let beside = candidates(besides: executable).map(\.path)
        let places = "the working directory (\(FileManager.default.currentDirectoryPath))"
            + (beside.isEmpty ? "" : " nor beside the binary (\(beside.joined(separator: ", ")))")
        throw InputError(
            file: path, mentioning: "not found in \(places); run abrlab from its repository, set \(homeVariable) to it, or name \(setting)"
        )
    }

    /// The running binary, links resolved.
    public static var executableURL: URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// The folders above the binary that may hold the shipped files, nearest first: each
    /// ancestor (a repository holding `.build/…/abrlab`) and its `share/abrlab`.
    public static func candidates(besides executable: URL?) -> [URL] {
        guard var folder = executable?.deletingLastPathComponent() else { return [] }
        var found: [URL] = []
        for _ in 0..<6 where folder.path != "/" {
            folder.deleteLastPathComponent()
            found.append(folder)
            found.append(folder.appendingPathComponent("share/abrlab"))
        }
        return found
    }
}
