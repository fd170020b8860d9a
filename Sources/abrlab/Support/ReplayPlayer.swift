import ABRLab
import ABRLabPlayerKit
import Foundation

/// One session of a replay playlist with its 10 Hz buffer samples.
struct ReplayItem {
    let title: String
    let timeline: BufferTimeline
    let samples: [BufferTimeline.Sample]
    /// When the session's last segment arrived: from then on the next item preloads.
    let lastDownloadEndSeconds: Double

    init(title: String, session: SessionResult) {
        self.title = title
        timeline = BufferTimeline(session: session)
        samples = timeline.samples()
        lastDownloadEndSeconds = session.segments.last?.downloadEndSeconds ?? timeline.endSeconds
    }

    /// The indicator `elapsed` seconds into this session, updated from `previous`.
    func indicator(after elapsed: Double, updating previous: BufferingIndicator) -> BufferingIndicator {
        var indicator = previous
        let time = min(timeline.startSeconds + elapsed, timeline.endSeconds)
        indicator.update(bufferSeconds: timeline.bufferSeconds(atSeconds: time), atSeconds: time, isNetworkActive: timeline.isDownloading(atSeconds: time))
        return indicator
    }
}

/// Draws a replay frame by frame: in place with colours on a terminal, as plain lines elsewhere.
struct ReplayPlayer {
    let items: [ReplayItem]
    let renderer: BufferBarRenderer

    mutating func play(speed: Double, terminal: Bool) {
        var drawnLines = 0
        var nextHeadStart = 0.0
        for (index, item) in items.enumerated() {
            let next = index + 1 < items.count ? items[index + 1] : nil
            var preload = next.map { BufferingIndicator(startSeconds: $0.timeline.startSeconds) }
            let headStart = nextHeadStart
            for (position, sample) in item.samples.enumerated() where sample.timeSeconds >= item.timeline.startSeconds + headStart || position == item.samples.count - 1 {
                var nextItem: BufferBarRenderer.Item?
                if let next, let indicator = preload, sample.timeSeconds >= item.lastDownloadEndSeconds {
                    preload = next.indicator(after: sample.timeSeconds - item.lastDownloadEndSeconds, updating: indicator)
                    nextItem = preload.map { BufferBarRenderer.Item(title: next.title, indicator: $0) }
                }
                let current = BufferBarRenderer.Item(title: item.title, indicator: sample.indicator)
                if terminal {
                    let frame = renderer.render(current, next: nextItem)
                    let clear = String(repeating: "\u{1B}[1A\u{1B}[2K", count: drawnLines)
                    Console.print(clear + "\r\u{1B}[2K" + frame.replacingOccurrences(of: "\n", with: "\n\u{1B}[2K"))
                    drawnLines = frame.split(separator: "\n", omittingEmptySubsequences: false).count
                    fflush(nil)
                    usleep(useconds_t(min(1_000_000, 100_000 / speed)))
                } else if position % 10 == 0 || position == item.samples.count - 1 {
                    let time = String(format: "t=%7.1fs ", sample.timeSeconds)
                    Console.print(time + renderer.render(current, next: nextItem).replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: time.count)))
                }
            }
            nextHeadStart = item.timeline.endSeconds - item.lastDownloadEndSeconds
            if terminal { drawnLines = 0 }
        }
    }
}
