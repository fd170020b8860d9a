/// Whose scheduler plays the segment buffer: Sabre's, or dash.js 5.1.1's (the `dashjs` profile).
///
/// dash.js's ScheduleController (spec ../shared/specs/dashjs.md section A.2; streaming/controllers/
/// ScheduleController.js:140-156, 217-253, 327-341 of dash.js 5.1.1) requests the next media segment while
/// `bufferLevel + segmentDuration < bufferTarget`, where the target is `bufferTimeAtTopQuality` (30 s) while the
/// top representation plays and `bufferTimeDefault` (18 s) otherwise, and retries every
/// `scheduling.defaultTimeout` (500 ms, core/Settings.js:1248) while the buffer is full. The browser fires XHR
/// progress events about every 50 ms (Chromium), Sabre's progress step, and dash.js's AbandonRequestsRule runs on
/// each of them for every request, the first one included.
public enum SegmentBufferPlayer: String, Equatable, Sendable {
    case sabre
    case dashjs

    /// `streaming.buffer.bufferTimeDefault`: the target below the top representation.
    public static let dashjsBufferTimeDefaultSeconds = 18.0
    /// `streaming.buffer.bufferTimeAtTopQuality`: the target at the top representation (the `dashjs` profile's
    /// maximum buffer); 60 s for periods of 600 s or more is not modelled.
    public static let dashjsBufferTimeAtTopQualitySeconds = 30.0
    /// `streaming.scheduling.defaultTimeout`: the scheduler's retry while the buffer is at its target.
    public static let dashjsScheduleRetryMs = 500.0

    /// Whether the first request also runs abandonment checks (dash.js: yes; Sabre: never).
    var checksFirstRequest: Bool { self == .dashjs }
}
