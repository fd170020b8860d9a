import ABRLab
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads one URL onto the end of a partial file with URLSession (libcurl underneath on
/// Linux), asking for the missing bytes only (`Range: bytes=N-`), so an interrupted fetch goes on
/// where it stopped. One transfer at a time; the caller waits for each.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Sound: one transfer at a time, its state handed between caller and delegate queue by `finished`.
    /// How the server answered a ranged request.
    enum Outcome: Equatable {
        /// The bytes were appended (or the file rewritten whole when the server ignored the range).
        case received
        /// 416: the partial file is already as long as the server's; the caller checks it.
        case rangeNotSatisfiable
    }

    private var session: URLSession!
    private let finished = DispatchSemaphore(value: 0)
    // Touched only by the session's serial delegate queue while a transfer runs, and by the
    // caller before it starts and after `finished` is signalled.
    private var handle: FileHandle?
    private var failure: String?
    private var outcome = Outcome.received
    private var onBytes: (Int) -> Void = { _ in }

    override init() {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Appends `url`'s bytes from `offset` (the partial file's length) to `partial`; `onBytes`
    /// gets each count of bytes written, a negative one when the file starts over.
    func fetch(_ url: URL, into partial: String, offset: Int, onBytes: @escaping (Int) -> Void) throws(InputError) -> Outcome {
        guard let handle = FileHandle(forWritingAtPath: partial) else { throw InputError(file: partial, "cannot write the partial download") }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        self.handle = handle
        failure = nil
        outcome = .received
        self.onBytes = onBytes
        var request = URLRequest(url: url)
        // Byte ranges count the bytes as stored: no transparent compression to shift them.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if offset > 0 { request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range") }
        session.dataTask(with: request).resume()
        finished.wait()
        self.handle = nil
        if let failure { throw InputError(file: url.absoluteString, failure) }
        return outcome
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 206:
            completionHandler(.allow)
        case 200:
            // The whole file: whatever was there is dropped.
            if let handle, handle.offsetInFile > 0 {
                onBytes(-Int(handle.offsetInFile))
                handle.truncateFile(atOffset: 0)
            }
            completionHandler(.allow)
        case 416:
            outcome = .rangeNotSatisfiable
            completionHandler(.cancel)
        default:
            failure = "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let handle, failure == nil else { return }
        handle.write(data)
        onBytes(data.count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error, failure == nil, outcome != .rangeNotSatisfiable {
            failure = "download failed: \(error.localizedDescription)"
        }
        finished.signal()
    }
}
