import ABRLab
import ABRLabCompare

/// Why a call of the C interface failed; the code tells Python which exception to raise.
enum EnvError: Error {
    /// Bad input: an option, an action, a trace name (Python's ValueError).
    case invalid(String)
    /// A video, trace or script that is not there (FileNotFoundError).
    case notFound(String)
    /// The emulation stopped (a time or step limit): the session cannot go on (RuntimeError).
    case emulation(String)
    /// The environment was closed (Gymnasium's ClosedEnvironmentError).
    case closed
    /// A step of a session not in an episode, before its first reset or after its episode
    /// ended (Gymnasium's ResetNeeded, also a ValueError).
    case resetNeeded(String)
    /// The sessions would not fit the memory the process may still take, checked before they
    /// are allocated (``EnvMemory``; MemoryError).
    case outOfMemory(String)

    /// The code the C functions return: 0 is success.
    var code: Int32 {
        switch self {
        case .invalid: 1
        case .notFound: 2
        case .emulation: 3
        case .closed: 4
        case .resetNeeded: 5
        case .outOfMemory: 6
        }
    }

    var message: String {
        switch self {
        case .invalid(let text), .notFound(let text), .emulation(let text), .resetNeeded(let text), .outOfMemory(let text): text
        case .closed: "the abrlab environment is closed; make a new one to go on"
        }
    }

    /// Settings named by their Python keywords.
    init(_ error: InputError) { self = .invalid(error.described(naming: \.pythonKeyword)) }
}
