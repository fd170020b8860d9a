import ABRLab
import ABRLabCompare
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
import ABRLabDatasets
#endif

/// Resolves a download's host once, within a few seconds, before URLSession is asked: offline,
/// libcurl waits on name resolution for tens of seconds before it fails, and its message does not
/// say that a mirror (`--from`) is the way to fetch without the network.
enum HostCheck {
    /// How long name resolution may take before the fetch is refused.
    static let bound: Double = 5

    /// Each host's answer in this process: `nil` when it resolved, else why not.
    private static let answers = Mutex<[String: String?]>([:])

    /// Refuses `url` when its host cannot be resolved, naming `--from` and where the file lies in
    /// a mirror (`mirrorPath`). Skipped behind a proxy, which resolves the host itself.
    static func check(_ url: URL, mirrorPath: String) throws(InputError) {
        guard let host = url.host, !host.isEmpty, !behindProxy else { return }
        let answer: String?
        if let known = answers.withLock({ $0[host] }) {
            answer = known
        } else {
            answer = resolve(host)
            answers.withLock { $0[host] = .some(answer) }
        }
        guard let answer else { return }
        throw InputError(
            file: LocalFile.clipped(host),
            "cannot resolve the host (\(answer)); offline? fetch from a mirror with --from DIR_OR_URL, a folder or an http(s) URL "
                + "laid out like the dataset root (this file is \(mirrorPath) there; docs/datasets.md)"
        )
    }

    private static var behindProxy: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// `getaddrinfo` on a thread of its own, waited for at most ``bound`` seconds: `nil` when the
    /// host resolved, else why not.
    private static func resolve(_ host: String) -> String? {
        final class Answer: Sendable {
            let value = Mutex<String??>(nil)
            let done = DispatchSemaphore(value: 0)
        }
        let answer = Answer()
        Thread.detachNewThread {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &result)
            if let result { freeaddrinfo(result) }
            let why: String? = status == 0 ? nil : status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            answer.value.withLock { $0 = .some(why) }
            answer.done.signal()
        }
        guard answer.done.wait(timeout: .now() + bound) == .success else {
            return "no answer from name resolution in \(Int(bound)) s"
        }
        return answer.value.withLock { $0 } ?? "no answer from name resolution"
    }
}
