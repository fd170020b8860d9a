import Synchronization

// Where the dashjs strategies leave each session's E.2 decision records (with abrlab's answers) for
// `compare --dashjs-records`; sessions finish on worker threads in any order, and the file is written in plan order.

public final class DashJSRecordSink: Sendable {
    private let sessions = Mutex<[String: [String]]>([:])

    public init() {}

    /// One more line of a session, by its session id (`ruleset@trace`); a session runs on one thread.
    func add(session: String, line: String) {
        sessions.withLock { $0[session, default: []].append(line) }
    }

    /// The lines of a session, in the order it wrote them; empty when it wrote none.
    public func lines(session: String) -> [String] {
        sessions.withLock { $0[session] ?? [] }
    }
}
