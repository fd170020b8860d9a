import ABRLab
import ABRLabCompare
import Foundation

extension FuzzTarget {
    /// `--param-grid` files: a header of `id.key` columns, quoted cells, comments, a byte order
    /// mark and CRLF. Besides the usual properties, a file reads the same with CRLF line ends
    /// and with a byte order mark in front, as spreadsheets save it.
    static let paramGrid = FuzzTarget(name: "param-grid", dictionary: "param-grid.dict") { bytes in
        let text = text(bytes)
        let result = parseGrid(text)
        if case .success(let grid) = result { checkGrid(grid) }
        if !bytes.contains(UInt8(ascii: "\r")) {
            let crlf = parseGrid(text.replacingOccurrences(of: "\n", with: "\r\n"))
            FuzzCheck.expect(sameOutcome(result, crlf), "CRLF line ends change the grid: \(describe(result)) against \(describe(crlf))")
        }
        if !bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            let marked = parseGrid("\u{FEFF}" + text)
            FuzzCheck.expect(sameOutcome(result, marked), "a byte order mark changes the grid: \(describe(result)) against \(describe(marked))")
        }
    }

    private static func parseGrid(_ text: String) -> Result<ParamGrid, InputError> {
        do throws(InputError) {
            return .success(try ParamGrid(text, file: "grid.csv"))
        } catch {
            FuzzCheck.rejection(error, file: "grid.csv")
            return .failure(error)
        }
    }

    /// A grid that reads sets something, each setting on its own later line, every key of its
    /// strategy filled with a trimmed value, no setting twice.
    private static func checkGrid(_ grid: ParamGrid) {
        FuzzCheck.expect(!grid.rows.isEmpty, "a grid with no settings was read")
        var count = 0
        for (id, rows) in grid.rows {
            let keys = grid.keys(for: id)
            FuzzCheck.expect(!id.isEmpty && !keys.isEmpty, "strategy '\(id)' with keys \(keys)")
            FuzzCheck.expect(grid.sweptKeys(for: id).isSubset(of: keys), "swept keys of \(id) outside its keys")
            FuzzCheck.expect(rows.map(\.line) == rows.map(\.line).sorted() && Set(rows.map(\.line)).count == rows.count && rows.allSatisfy { $0.line >= 2 },
                             "\(id)'s lines \(rows.map(\.line)) are not increasing after the header")
            FuzzCheck.expect(Set(rows.map(\.values)).count == rows.count, "a setting of \(id) is read twice")
            for row in rows {
                FuzzCheck.expect(row.values.keys.sorted() == keys, "line \(row.line) sets \(row.values.keys.sorted()) of \(id), not \(keys)")
                FuzzCheck.expect(row.values.values.allSatisfy { !$0.isEmpty && $0.trimmingCharacters(in: .whitespaces) == $0 }, "line \(row.line) keeps an empty or untrimmed value")
            }
            count += rows.count
        }
        FuzzCheck.expect(count <= ParamGrid.maximumSettings, "\(count) settings read")
    }

    private static func sameOutcome(_ a: Result<ParamGrid, InputError>, _ b: Result<ParamGrid, InputError>) -> Bool {
        switch (a, b) {
        case (.success(let left), .success(let right)): left.rows == right.rows
        case (.failure(let left), .failure(let right)): left == right
        default: false
        }
    }

    private static func describe(_ result: Result<ParamGrid, InputError>) -> String {
        switch result {
        case .success(let grid): "\(grid.rows)"
        case .failure(let error): error.description
        }
    }
}
