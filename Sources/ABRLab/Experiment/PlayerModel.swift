/// One mechanic of the player and the network under it, owning exactly the state that mechanic
/// needs: ``WholeTransferModel`` (`pensieve`, `default`), ``SegmentBufferModel`` (`sabre`) and
/// ``LiveStreamModel`` (`live`). ``SessionEngine`` drives one, specialised for it, and the
/// session's ``SessionRecorder`` hears what it does.
///
/// A request is begun, then stepped until it is done; stepped event by event, it stops at each
/// ``NetworkEvent``, else it runs to its next check or its end in one call. What only some models
/// do is a capability of its own (``PlayerCapabilities``).
protocol PlayerModel: Sendable {
    /// Which model this is, for code that holds one of several without knowing which.
    static var kind: PlayerModelKind { get }
    /// Buffered media, milliseconds, as a strategy's context shows it.
    var bufferMs: Double { get }
    /// Session time, milliseconds, as a strategy's context shows it.
    var nowMs: Double { get }

    /// Spends one step of the session's budget on a request.
    mutating func spendStep() throws(EmulationError)
    /// Starts the request for segment `segment` that `decision` asks for (checked by the engine).
    mutating func begin(segment: Int, decision: RequestDecision, recorder: inout SessionRecorder) throws(EmulationError)
    /// Advances the request under way: to its next network event when `events`, else to its
    /// next abandonment check or its end.
    mutating func step(_ recorder: inout SessionRecorder, events: Bool) throws(EmulationError) -> PlayerStep
    /// Plays out what is buffered and hands over what the session recorded.
    mutating func finish(_ recorder: inout SessionRecorder, traceName: String, profileName: String) -> SessionResult
}

/// A player model whose transfers can share a link with other players' (``LinkGroup``):
/// ``WholeTransferModel`` and ``SegmentBufferModel``. A live player paces itself by its own live
/// edge, so ``LiveStreamModel`` is not one; a group reaches these members only through a
/// session of such a model (``SharedLinkSession``).
protocol SharedLinkModel: PlayerModel {
    /// Moves the network to `seconds` into the trace before the session starts: the player joins
    /// a shared link that long after its first player.
    mutating func joinLink(atSeconds seconds: Double) throws(EmulationError)
    /// Moves the transfer in its data phase as `move` says: the event it reached (a period
    /// boundary, a progress step's end, its end) or the abandonment check it stopped at, `nil`
    /// after a stretch that ends before its next event.
    mutating func stepShared(_ recorder: inout SessionRecorder, move: LinkShareMove) throws(EmulationError) -> SharedStep?
    /// Walks at most `steps` quiet events of the transfer in its data phase at `fraction` of the
    /// link (period boundaries, progress steps with no check due) while they fall at or before
    /// link time `limitSeconds`, moving `seconds` (the link time walked to) along by each event's
    /// own seconds; returns how many it walked and, when it stopped before an event that may
    /// change the share (an error included), that event's link time. It keeps the walk (`keep`)
    /// or leaves the model as it was (a plan's dry run, ``SharedPlan``).
    mutating func walkSharedQuietly(
        _ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double, keep: Bool
    ) -> (walked: Int, loudSeconds: Double?)
}

/// The three player models, by name.
enum PlayerModelKind {
    case wholeTransfers
    case segmentBuffer
    case live
}

/// Where a player model's request stopped.
enum PlayerStep {
    /// At a network event; the request goes on.
    case event(NetworkEvent)
    /// At an abandonment check, which waits for an answer.
    case check(DownloadProgress)
    /// At a playback update, where a strategy may set the rate; the request goes on.
    case playback(PlaybackUpdate)
    /// At its end: the request is recorded, its segment delivered or not.
    case done(delivered: Bool)
}
