import ABRLab
import CLuaShim
import Foundation

/// Where a script lives and how Lua names it, so every failure becomes a one-line
/// `InputError` naming the script's path and, where Lua knows it, the line.
struct LuaScriptLocation: Hashable, Sendable {
    /// The path as the user gave it; messages name it.
    let path: String
    /// The chunk name Lua reports (`x.lua`); messages that start with it get `path` instead.
    let sourceLabel: String
    let limits: LuaLimits
    /// Whether the engine adds tracebacks; only then may an error span several lines.
    var verbose = false

    /// Lua's chunk name: `=` makes Lua print the label as is.
    var sourceName: String { "=" + sourceLabel }

    /// The error for a failed shim call made during `phase` (`choose`, `setup`, …); a verbose
    /// engine's traceback stays on the lines after it.
    func error(status: Int32, message: String, phase: String) -> InputError {
        guard verbose, let traceback = message.range(of: Self.tracebackMarker) else {
            return error(status: status, singleLine: message, phase: phase)
        }
        let lines = message[message.index(after: traceback.lowerBound)...]
            .replacingOccurrences(of: "\t" + sourceLabel + ":", with: "\t" + path + ":")
        return error(status: status, singleLine: String(message[..<traceback.lowerBound]), phase: phase).appending(traceback: lines)
    }

    /// What `luaL_traceback` puts between a message and its traceback.
    private static let tracebackMarker = "\nstack traceback:\n"

    private func error(status: Int32, singleLine message: String, phase: String) -> InputError {
        switch status {
        case Int32(ABRL_ERR_MEMORY):
            return InputError(file: path, "\(phase) exceeded the memory limit of \(Self.mebibytes(limits.memoryBytesPerEngine)) per engine")
        case Int32(ABRL_ERR_BUDGET):
            return located(message, "\(phase) exceeded the budget of \(limits.instructionsPerCall) instructions per call")
        case Int32(ABRL_ERR_SESSION_BUDGET):
            return located(
                message,
                "\(phase) exceeded the session's budget of \(limits.instructionsPerSession) instructions across all its calls (\(LuaLimits.sessionCallBudgets) times the budget per call)"
            )
        case Int32(ABRL_ERR_TIME):
            return located(message, "\(phase) exceeded the time limit of \(limits.secondsPerCall) s per call")
        case Int32(ABRL_ERR_SCRIPT):
            return InputError(file: path, message)
        default:
            if let (file, line, text) = split(message) { return InputError(file: file, line: line, text) }
            return InputError(file: path, "\(phase): \(message)")
        }
    }

    /// A limit error at `place` (`x.lua:12`, or empty when unknown).
    private func located(_ place: String, _ text: String) -> InputError {
        if let (file, line, _) = split(place + ": ") { return InputError(file: file, line: line, text) }
        return InputError(file: path, place.isEmpty ? text : "\(text) (at \(place))")
    }

    /// `x.lua:12: text` → (path, 12, text) when the message starts with this script's label, or
    /// with a module's (`lib/x.lua:3: text` → the module's file in the script's folder).
    private func split(_ message: String) -> (String, Int, String)? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        guard let file = file(sourceLabel: String(message[..<colon])) else { return nil }
        let rest = message[message.index(after: colon)...]
        guard let lineEnd = rest.firstIndex(of: ":"), let line = Int(rest[..<lineEnd]) else { return nil }
        var text = rest[rest.index(after: lineEnd)...]
        if text.first == " " { text = text.dropFirst() }
        return (file, line, String(text))
    }

    /// The file behind a chunk name Lua reports: this script's, or a module's in its folder
    /// (`lib/x.lua`); nil for any other.
    func file(sourceLabel label: String) -> String? {
        if label == sourceLabel { return path }
        guard label.hasSuffix(".lua"), LuaScriptResources.isModuleName(String(label.dropLast(4)).replacingOccurrences(of: "/", with: ".")) else {
            return nil
        }
        return LuaScriptResources.path(label, inFolder: LuaScriptResources.folder(ofScript: path))
    }

    private static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
