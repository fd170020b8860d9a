import ABRLab
import ABRLabCompare
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
import ABRLabDatasets
#endif

/// Downloads one URL onto the end of a partial file with URLSession (libcurl underneath on
/// Linux), asking for the missing bytes only (`Range: bytes=N-`), so an interrupted fetch goes on
/// where it stopped. Never more than the registry's size is written: a `Content-Length` that
/// disagrees is refused before a byte is, and a body that runs on is cut at the size. One
/// transfer at a time; the caller waits for each, and ends one slower than the low-speed limit.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Sound: one transfer at a time; `partial` and `onBytes` are set by the caller before it
    // starts and used only by the session's serial delegate queue until `finished` is signalled,
    // and what the waiting caller also reads or writes is in `state`.
    /// How the server answered a ranged request.
    enum Outcome: Equatable {
        /// The bytes were appended (or the file rewritten whole when the server ignored the range).
        case received
        /// 416 to a ranged request: the server has no bytes past the partial file.
        case rangeNotSatisfiable
    }

    private struct State {
        var failure: InputError?
        var outcome = Outcome.received
        /// Body bytes received this transfer, for the low-speed limit.
        var received = 0
        /// The bytes the body may hold: what the registry's size leaves.
        var allowed = 0
    }

    private var session: URLSession!
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex(State())
    private var partial: PartialFile?
    private var url: URL?
    private var fileBytes = 0
    private var onBytes: (Int) -> Void = { _ in }

    init(lowSpeed: LowSpeedLimit) {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        // A backstop for a silent connection; the low-speed limit usually ends one first.
        configuration.timeoutIntervalForRequest = max(60, lowSpeed.seconds + 10)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Appends `url`'s bytes to `partial` up to `fileBytes`, the registry's size; `onBytes` gets
    /// each count of bytes written, a negative one when the file starts over.
    func fetch(
        _ url: URL, into partial: PartialFile, fileBytes: Int, lowSpeed: LowSpeedLimit, onBytes: @escaping (Int) -> Void
    ) throws(InputError) -> Outcome {
        self.partial = partial
        self.url = url
        self.fileBytes = fileBytes
        self.onBytes = onBytes
        state.withLock { $0 = State() }
        var request = URLRequest(url: url)
        // Byte ranges count the bytes as stored: no transparent compression to shift them.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if partial.length > 0 { request.setValue("bytes=\(partial.length)-", forHTTPHeaderField: "Range") }
        let task = session.dataTask(with: request)
        task.resume()
        wait(for: task, lowSpeed: lowSpeed)
        self.partial = nil
        let (failure, outcome) = state.withLock { ($0.failure, $0.outcome) }
        if let failure { throw failure }
        return outcome
    }

    /// Waits for `task` to end, cancelling it once fewer than `lowSpeed.bytesPerSecond` bytes a
    /// second arrived over the last `lowSpeed.seconds` (waiting for the answer counts).
    private func wait(for task: URLSessionDataTask, lowSpeed: LowSpeedLimit) {
        guard lowSpeed.isEnabled else { return finished.wait() }
        let window = UInt64(lowSpeed.seconds * 1e9)
        var samples = [(at: DispatchTime.now().uptimeNanoseconds, bytes: 0)]
        while finished.wait(timeout: .now() + min(0.5, lowSpeed.seconds / 4)) == .timedOut {
            let now = DispatchTime.now().uptimeNanoseconds
            let bytes = state.withLock { $0.received }
            samples.append((now, bytes))
            // The oldest sample kept is the last one at least a window old.
            while samples.count > 2, now - samples[1].at >= window { samples.removeFirst() }
            guard now - samples[0].at >= window, Double(bytes - samples[0].bytes) < Double(lowSpeed.bytesPerSecond) * lowSpeed.seconds else {
                continue
            }
            let stalled = InputError(
                file: url?.absoluteString ?? "", "stalled: under \(lowSpeed.bytesPerSecond) bytes/s for \(lowSpeed.secondsText) s "
                    + "(the low-speed limit, --speed-limit and --speed-time); try again, or fetch from another mirror with --from"
            )
            state.withLock { if $0.failure == nil { $0.failure = stalled } }
            task.cancel()
            finished.wait()
            return
        }
    }

    private func fail(_ message: String, file: String? = nil) {
        state.withLock { if $0.failure == nil { $0.failure = InputError(file: file ?? url?.absoluteString ?? "", message) } }
    }

    private var failed: Bool { state.withLock { $0.failure != nil } }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The Location as sent: Foundation makes `file:///etc/passwd` an http URL of this host.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        let scheme = (URL(string: location)?.scheme ?? request.url?.scheme)?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            let target = LocalFile.clipped(location.isEmpty ? request.url?.absoluteString ?? "?" : location)
            fail("HTTP \(response.statusCode) redirects to \(target), not an http(s) URL; refused")
            return completionHandler(nil)
        }
        // A server's folder answers with a redirect to itself ending in `/` (Python's http.server
        // does), which Foundation follows without the slash until it gives up.
        if location.hasSuffix("/"), !(url?.path.hasSuffix("/") ?? true) {
            fail("HTTP \(response.statusCode) redirects to \(LocalFile.clipped(location)), a folder: the mirror holds a folder where the file should be")
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        if let problem = failed ? nil : refusal(of: http), !problem.isEmpty { fail(problem) }
        guard failed || state.withLock({ $0.outcome }) == .rangeNotSatisfiable else { return completionHandler(.allow) }
        completionHandler(.cancel)
        // Foundation on Linux otherwise waits for the server to end the body it no longer reads.
        dataTask.cancel()
    }

    /// Why the answer is refused (`nil`: accepted), checked before a byte is written: the status,
    /// and the length the registry's size allows from where the partial file ends.
    private func refusal(of response: HTTPURLResponse?) -> String? {
        guard let partial else { return "no file to write to" }
        let status = response?.statusCode ?? 0
        let length = response?.expectedContentLength ?? -1
        let offset = partial.length
        switch status {
        case 206:
            let range = response?.value(forHTTPHeaderField: "Content-Range") ?? ""
            if let (start, total) = Self.contentRange(range) {
                if start != offset { return "the server sent bytes from \(start), not from \(offset) as asked (Content-Range \(LocalFile.clipped(range)))" }
                if let total, total != fileBytes { return "the server's file is \(total) bytes (Content-Range), not the registry's \(fileBytes); refused" }
            }
            if length >= 0, length != Int64(fileBytes - offset) {
                return "Content-Length \(length) from byte \(offset), where the registry's \(fileBytes) bytes leave \(fileBytes - offset); refused"
            }
            state.withLock { $0.allowed = fileBytes - offset }
        case 200:
            if length >= 0, length != Int64(fileBytes) { return "Content-Length \(length), not the registry's \(fileBytes) bytes; refused" }
            // The whole file: whatever was there is dropped.
            if offset > 0 {
                do throws(InputError) {
                    try partial.restart()
                } catch {
                    fail(error.message, file: error.file)
                    return ""
                }
                onBytes(-offset)
            }
            state.withLock { $0.allowed = fileBytes }
        case 416 where offset > 0:
            state.withLock { $0.outcome = .rangeNotSatisfiable }
        case 416:
            return "HTTP 416 Range Not Satisfiable to a request for the whole file (no range asked): the server refused it"
        default:
            return LocalFile.clipped("HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))")
        }
        return nil
    }

    /// `bytes START-END/TOTAL` as (START, TOTAL), TOTAL `nil` for `*`.
    private static func contentRange(_ text: String) -> (Int, Int?)? {
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let start = parts[0].split(separator: "-").first.flatMap({ Int($0) }) else { return nil }
        return (start, Int(parts[1]))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let partial, !failed else { return }
        let over = state.withLock { state -> Bool in
            state.received += data.count
            return state.received > state.allowed
        }
        guard !over else {
            fail("the server sent more than the registry's \(fileBytes) bytes; refused at that size")
            return dataTask.cancel()
        }
        do throws(InputError) {
            try partial.append(contentsOf: data)
        } catch {
            fail(error.message, file: error.file)
            return dataTask.cancel()
        }
        onBytes(data.count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error, state.withLock({ $0.outcome }) != .rangeNotSatisfiable {
            fail("download failed: \(LocalFile.clipped(error.localizedDescription))")
        }
        finished.signal()
    }
}

/// A transfer slower than `bytesPerSecond` over `seconds` is ended, as curl's `--speed-limit`
/// and `--speed-time`: a stalled mirror ends the fetch instead of holding it forever.
public struct LowSpeedLimit: Sendable, Equatable {
    /// 0: no limit.
    public var bytesPerSecond: Int
    public var seconds: Double

    public init(bytesPerSecond: Int, seconds: Double) {
        self.bytesPerSecond = bytesPerSecond
        self.seconds = seconds
    }

    /// Under 1 KiB/s for 30 s.
    public static let standard = LowSpeedLimit(bytesPerSecond: 1024, seconds: 30)

    var isEnabled: Bool { bytesPerSecond > 0 && seconds > 0 }

    var secondsText: String { seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds) }
}
