import ABRLab
import Foundation

/// Where time-stamping types read "now" from. Live code uses ``SystemTimeSource``; the emulator
/// passes a ``ManualTimeSource`` that it advances in simulated time.
public protocol TimeSource {
    func now() -> Date
}

/// The wall clock.
public struct SystemTimeSource: TimeSource, Sendable {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to. One belongs to one session.
public final class ManualTimeSource: TimeSource {
    /// The instant that simulated time 0 maps to. The default, Foundation's reference date, keeps
    /// simulated seconds exact: a `Date` stores seconds since that instant.
    public let origin: Date
    /// Seconds since `origin`.
    public var elapsedSeconds: Double

    public init(origin: Date = Date(timeIntervalSinceReferenceDate: 0), elapsedSeconds: Double = 0) {
        self.origin = origin
        self.elapsedSeconds = elapsedSeconds
    }

    public func now() -> Date { origin.addingTimeInterval(elapsedSeconds) }

    public func advance(bySeconds seconds: Double) { elapsedSeconds += seconds }
}
