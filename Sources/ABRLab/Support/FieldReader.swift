/// Reads numeric fields of a text file, turning every failure into an `InputError` that names
/// the file, the line and the field, so loaders share one wording for bad numbers.
package struct FieldReader {
    let file: String

    package init(file: String) { self.file = file }

    /// A finite number; `name` says what the field is, e.g. `bandwidth_kbps`.
    package func number(_ field: Substring, line: Int, name: String) throws(InputError) -> Double {
        guard let value = Double(field) else {
            throw InputError(file: file, line: line, "\(name) \(quoted(field)) is not a number")
        }
        guard value.isFinite else {
            throw InputError(file: file, line: line, "\(name) is \(field); it must be a finite number")
        }
        return value
    }

    /// A finite number ≥ 0.
    package func nonNegative(_ field: Substring, line: Int, name: String) throws(InputError) -> Double {
        let value = try number(field, line: line, name: name)
        guard value >= 0 else { throw InputError(file: file, line: line, "\(name) is \(field); it must be ≥ 0") }
        return value
    }

    /// A finite number > 0.
    package func positive(_ field: Substring, line: Int, name: String) throws(InputError) -> Double {
        let value = try number(field, line: line, name: name)
        guard value > 0 else { throw InputError(file: file, line: line, "\(name) is \(field); it must be > 0") }
        return value
    }

    /// A whole number ≥ 0 written without a fraction or exponent.
    package func count(_ field: Substring, line: Int, name: String) throws(InputError) -> Int {
        guard let value = Int(field) else {
            throw InputError(file: file, line: line, "\(name) \(quoted(field)) is not a whole number")
        }
        guard value >= 0 else { throw InputError(file: file, line: line, "\(name) is \(field); it must be ≥ 0") }
        return value
    }

    private func quoted(_ field: Substring) -> String {
        field.isEmpty ? "(empty)" : "'\(field.prefix(40))'"
    }
}
