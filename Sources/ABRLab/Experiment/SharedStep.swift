/// Where a transfer moved on a shared link (``SharedLinkModel/stepShared(_:move:)``) stopped at
/// its own next event. A shared step is always told event by event and a live player shares no
/// link, so it is never a silent end (``PlayerStep/done(delivered:)``) nor a playback update.
enum SharedStep {
    /// At a network event: a period boundary, a progress step's end, or the transfer's end.
    case event(NetworkEvent)
    /// At an abandonment check, which waits for an answer.
    case check(DownloadProgress)
}

extension PlayerStep {
    /// A shared step as the model's own step would have stopped at it, stepped event by event.
    @inline(__always)
    init(_ step: SharedStep) {
        switch step {
        case .event(let event): self = .event(event)
        case .check(let progress): self = .check(progress)
        }
    }
}
