// Replays E.2 decision records through the Swift dash.js 5.1.1 model and writes replay.mjs's E.4 output, one line per
// record (rule reasons and dash.js's log lines aside). Sessions must be contiguous, as the harness requires.

public enum DashJSReplayer {
    public struct Result: Sendable {
        public var lines: [String]
        public var records: Int
        public var sessions: Int
        public var errors: Int
    }

    public static func replay(text: String, file: String) -> Result {
        var result = Result(lines: [], records: 0, sessions: 0, errors: 0)
        var session: DashJSReplaySession?
        var sessionId: String?
        var failed: String?
        var seen: Set<String> = []
        var nowMs = 0.0
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy(\.isWhitespace) { continue }
            result.records += 1
            let lineNumber = offset + 1
            let record: DashJSRecord
            do {
                record = try DashJSRecordReader.read(line: String(line), lineNumber: lineNumber, file: file)
            } catch {
                result.errors += 1
                result.lines.append(DashJSOutputJSON.object([("line", .number(Double(lineNumber))), ("error", .string(error.description))]).text)
                continue
            }
            func fail(_ message: String) {
                result.errors += 1
                result.lines.append(DashJSOutputJSON.object([("session", .string(record.session)), ("seq", .optionalNumber(record.seq)),
                                                             ("line", .number(Double(lineNumber))), ("error", .string(message))]).text)
            }
            if sessionId != record.session {
                if let current = session { nowMs = current.controller.nowMs }
                session = nil
                failed = nil
                sessionId = record.session
                guard !seen.contains(record.session) else {
                    failed = "session \(record.session) is not contiguous in the input"
                    fail(failed!)
                    continue
                }
                seen.insert(record.session)
                result.sessions += 1
                do {
                    session = try DashJSReplaySession(first: record, nowMs: nowMs)
                } catch {
                    failed = error.message
                    fail(error.message)
                    continue
                }
            }
            if let failed {
                fail(failed)
                continue
            }
            do {
                result.lines.append(DashJSOutputJSON.object(try session!.run(record)).text)
            } catch {
                fail(error.message)
            }
        }
        return result
    }
}
