import ABRLab
import ABRLabCompare
import Foundation

/// Why a call of the C interface failed: what failed (its ``Subject``, whose code picks the
/// Python exception), the one-line message, and a JSON detail that names the setting, the file
/// and line, the strategy or the limit, so a caller need not read the message.
///
/// The caller's buffer receives the message, a NUL, the detail (a JSON object, `{"subject": …}`
/// and the members below) and a NUL; a detail that does not fit is left out (an empty string).
struct EnvError: Error {
    /// What failed; its code is what the C functions return (0 is success).
    enum Subject: String, CaseIterable {
        /// A call's own argument: an action, a trace name or index, a buffer, the options'
        /// JSON (Python's ValueError).
        case call
        /// An input: a file that is missing, unreadable or malformed, or a strategy or dataset
        /// named by text that resolves to nothing (`abrlab.InputError`; `missing` in the detail
        /// when the file is not there, also a FileNotFoundError).
        case file
        /// The session cannot go on for another reason: a trace that delivers no data, a QoE
        /// script that fails at the end (RuntimeError).
        case emulation
        /// The environment was closed (Gymnasium's ClosedEnvironmentError).
        case closed
        /// A step of a session not in an episode, before its first reset or after its episode
        /// ended (`abrlab.StepBeforeReset`: Gymnasium's ResetNeeded, also a ValueError).
        case resetNeeded = "reset_needed"
        /// The sessions would not fit the memory the process may still take, checked before
        /// they are allocated (``EnvMemory``; MemoryError).
        case outOfMemory = "out_of_memory"
        /// A setting's value, alone or with others: out of range, of the wrong kind, or unable
        /// to play this video (`abrlab.SettingError`, a ValueError).
        case setting
        /// A strategy failed: an expert threw or chose a level outside the ladder
        /// (`abrlab.StrategyError`, a RuntimeError).
        case strategy
        /// The session ran past a limit of its time or steps (`abrlab.LimitError`, a RuntimeError).
        case limit

        var code: Int32 {
            switch self {
            case .call: 1
            case .file: 2
            case .emulation: 3
            case .closed: 4
            case .resetNeeded: 5
            case .outOfMemory: 6
            case .setting: 7
            case .strategy: 8
            case .limit: 9
            }
        }
    }

    /// A member of the detail.
    enum Detail: Encodable, Equatable {
        case text(String)
        case texts([String])
        case integer(Int)
        case number(Double)
        case flag(Bool)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let value): try container.encode(value)
            case .texts(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .flag(let value): try container.encode(value)
            }
        }
    }

    let subject: Subject
    let message: String
    /// The detail's members beside `subject`.
    let detail: [String: Detail]

    init(_ subject: Subject, _ message: String, detail: [String: Detail] = [:]) {
        self.subject = subject
        self.message = message
        self.detail = detail
    }

    var code: Int32 { subject.code }

    /// The detail as one JSON object, keys sorted.
    var detailJSON: String {
        var members = detail
        members["subject"] = .text(subject.rawValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(members) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Bad input to a call (``Subject/call``).
    static func invalid(_ message: String) -> EnvError { EnvError(.call, message) }

    /// An input file, at `line` when one applies; `missing` when it is not there.
    static func file(_ message: String, file: String, line: Int? = nil, missing: Bool = false) -> EnvError {
        var detail: [String: Detail] = ["file": .text(file)]
        if let line { detail["line"] = .integer(line) }
        if missing { detail["missing"] = .flag(true) }
        return EnvError(.file, message, detail: detail)
    }

    /// A file that is not there.
    static func notFound(_ message: String, file: String) -> EnvError { .file(message, file: file, missing: true) }

    /// Settings, by their Python keywords; the first is the detail's `setting`.
    static func setting(_ message: String, keywords: [String]) -> EnvError {
        var detail: [String: Detail] = ["settings": .texts(keywords)]
        if let first = keywords.first { detail["setting"] = .text(first) }
        return EnvError(.setting, message, detail: detail)
    }

    /// A strategy (an expert, or the session's own `strategy_id`) that failed on `trace`, at a
    /// script's `file` and `line` where the error names them.
    static func strategy(_ message: String, strategy: String, trace: String?, file: String? = nil, line: Int? = nil) -> EnvError {
        var detail: [String: Detail] = ["strategy": .text(strategy)]
        if let trace { detail["trace"] = .text(trace) }
        if let file { detail["file"] = .text(file) }
        if let line { detail["line"] = .integer(line) }
        return EnvError(.strategy, message, detail: detail)
    }

    /// The session cannot go on (``Subject/emulation``); `cause` names what failed (`trace`, `qoe`, `session`).
    static func emulation(_ message: String, cause: String, trace: String?) -> EnvError {
        var detail: [String: Detail] = ["cause": .text(cause)]
        if let trace { detail["trace"] = .text(trace) }
        return EnvError(.emulation, message, detail: detail)
    }

    static let closed = EnvError(.closed, "the abrlab environment is closed; make a new one to go on")

    static func resetNeeded(_ message: String) -> EnvError { EnvError(.resetNeeded, message) }

    static func outOfMemory(_ message: String) -> EnvError { EnvError(.outOfMemory, message) }

    /// An input error, settings named by their Python keywords: about a file (or an input named
    /// by text) or about settings, which the message names as `abrlab compare`'s does by flag.
    init(_ error: InputError) {
        let message = error.described(naming: \.pythonKeyword)
        switch error.subject {
        case .file(let file): self = .file(message, file: file, line: error.line)
        case .settings(let settings): self = .setting(message, keywords: settings.map(\.pythonKeyword))
        }
    }

    /// An emulation error by its subject: settings the session cannot be played with, the
    /// strategy (`strategyID`, the session's own), a limit, the trace (`trace` names it).
    init(_ error: EmulationError, strategyID: String, trace: String?) {
        if let input = error.settingsError {
            self.init(input)
            return
        }
        let message = error.described(naming: \.pythonKeyword)
        switch error {
        case .sessionTimeLimit(let trace, let seconds):
            self.init(.limit, message, detail: ["limit": .text("time"), "seconds": .number(seconds), "trace": .text(trace)])
        case .sessionStepLimit(let trace, let steps):
            self.init(.limit, message, detail: ["limit": .text("steps"), "steps": .integer(steps), "trace": .text(trace)])
        case .groupStepLimit(let trace, let steps, _):
            self.init(.limit, message, detail: ["limit": .text("steps"), "steps": .integer(steps), "trace": .text(trace)])
        case .traceDeliversNoData(let trace):
            self = .emulation(message, cause: "trace", trace: trace)
        default:
            switch error.subject {
            case .strategy: self = .strategy(message, strategy: strategyID, trace: trace)
            case .limit: self.init(.limit, message, detail: trace.map { ["trace": .text($0)] } ?? [:])
            case .trace, .settings: self = .emulation(message, cause: "session", trace: trace)
            }
        }
    }
}
