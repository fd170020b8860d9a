import ABRLab
import Foundation

// Resets and steps: every session of the environment in one call, its arguments and results in
// one row of words (``EnvCall``) whose fields the layouts call names.

/// Resets the sessions the call names (``Environment/reset(_:)``).
@_cdecl("abrlab_env_reset")
public func abrlabEnvReset(
    _ pointer: UnsafeMutableRawPointer, _ call: UnsafePointer<Int64>, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in try env.reset(EnvCall(call)) }
}

/// Steps every session with its action under the call's autoreset mode (``Environment/step(_:)``).
@_cdecl("abrlab_env_step")
public func abrlabEnvStep(
    _ pointer: UnsafeMutableRawPointer, _ call: UnsafePointer<Int64>, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in try env.step(EnvCall(call)) }
}

/// Writes what every expert would choose at each session's current decision, a row of
/// `experts` levels per session (0-based; −1 for a session waiting for its autoreset). An expert
/// that failed in a session is an error naming it.
@_cdecl("abrlab_env_experts")
public func abrlabEnvExperts(
    _ pointer: UnsafeMutableRawPointer, _ levels: UnsafeMutablePointer<Int64>, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in
        let ids = env.configuration.experts.map(\.id)
        for (slot, session) in env.slots.enumerated() {
            for (index, expert) in session.experts.experts.enumerated() {
                switch expert {
                case .following(_, let choice): levels[slot * ids.count + index] = session.needsReset ? -1 : Int64(choice)
                case .failed(let failure):
                    let trace = env.configuration.traces[session.traceIndex].name
                    throw .strategy(
                        "expert \(ids[index]) failed on trace \(trace): \(failure.reason)", strategy: ids[index], trace: trace,
                        file: failure.file, line: failure.line
                    )
                }
            }
        }
    }
}
