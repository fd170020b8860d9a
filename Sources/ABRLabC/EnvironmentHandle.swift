import Foundation

/// What Python holds: an environment behind a lock. ctypes releases the GIL around each call,
/// so calls from several threads run here one at a time, and once closed every call answers
/// ``EnvError/closed`` instead of touching freed sessions. The handle itself lives until
/// Python's finalizer destroys it, so a call after `close` still finds it.
final class EnvironmentHandle {
    private let lock = NSLock()
    private var environment: Environment?

    init(_ environment: Environment) {
        self.environment = environment
    }

    /// Runs `body` on the open environment, holding the lock.
    func with<Value>(_ body: (Environment) throws(EnvError) -> Value) throws(EnvError) -> Value {
        lock.lock()
        defer { lock.unlock() }
        guard let environment else { throw .closed }
        return try body(environment)
    }

    /// Frees the sessions, after any call in progress; later calls answer ``EnvError/closed``.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        environment = nil
    }
}
