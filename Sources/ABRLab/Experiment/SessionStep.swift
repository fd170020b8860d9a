/// Where a ``StreamingSession`` stopped when it was advanced: waiting for an input, telling what
/// happened, or at its end.
///
/// A step carries small facts only. The context a decision is made on stays in the session,
/// which lends it (``StreamingSession/decide(with:)``) or copies it
/// (``StreamingSession/context``): handed out in each step, its shared ladder, video and
/// history would be retained and released at every decision.
public enum SessionStep: Sendable {
    /// Waits for the decision of the next request: ``StreamingSession/decide(with:)`` lends the
    /// context to a closure that decides, ``StreamingSession/decide(_:)`` takes a decision.
    case decide
    /// Waits for the answer of an abandonment check on the download under way
    /// (``StreamingSession/answer(_:)``).
    case checkAbandonment(DownloadProgress)
    /// The player waited this long for room in a full buffer before its next request (what a
    /// strategy's `didWait` hears, with ``StreamingSession/context``); the next step asks for
    /// the decision.
    case waited(seconds: Double)
    /// A request ended: a segment delivered, an abandoned attempt or a replacement (what a
    /// strategy's `didDownload` hears, with ``StreamingSession/context`` as it stands now).
    case downloaded(DownloadRecord)
    /// The network reached an event (``StreamingSession/nextEvent()`` only).
    case network(NetworkEvent)
    /// The session played its last segment out; what it recorded. (Boxed, so the far more
    /// frequent steps are not copied at a result's size.)
    indirect case finished(SessionResult)
}
