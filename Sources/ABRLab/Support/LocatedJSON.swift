/// A parsed JSON value that remembers the line it starts on, so loaders can point at the line
/// of a bad element instead of only its index.
package struct LocatedJSON {
    indirect enum Value {
        /// Members in file order; duplicate keys are rejected by the parser.
        case object([(key: String, value: LocatedJSON)])
        case array([LocatedJSON])
        case number(Double)
        case string(String)
        case bool(Bool)
        case null
    }

    let value: Value
    /// 1-based line of the value's first character.
    package let line: Int

    /// An article and a noun for messages: "an object", "a number".
    var kindDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .number: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The members of an object; `what` names the value in the error otherwise (built only then:
    /// a trace has thousands of elements).
    package func members(file: String, what: @autoclosure () -> String) throws(InputError) -> [(key: String, value: LocatedJSON)] {
        guard case .object(let members) = value else {
            throw InputError(file: file, line: line, "\(what()) must be an object, not \(kindDescription)")
        }
        return members
    }

    /// The elements of an array; `what` names the value in the error otherwise.
    package func elements(file: String, what: @autoclosure () -> String) throws(InputError) -> [LocatedJSON] {
        guard case .array(let elements) = value else {
            throw InputError(file: file, line: line, "\(what()) must be an array, not \(kindDescription)")
        }
        return elements
    }

    /// A number; JSON has no NaN or infinity, but a huge literal overflows to infinity and is rejected.
    package func number(file: String, what: @autoclosure () -> String) throws(InputError) -> Double {
        guard case .number(let number) = value else {
            throw InputError(file: file, line: line, "\(what()) must be a number, not \(kindDescription)")
        }
        guard number.isFinite else { throw InputError(file: file, line: line, "\(what()) is too large") }
        return number
    }

    /// A number ≥ 0.
    package func nonNegative(file: String, what: @autoclosure () -> String) throws(InputError) -> Double {
        let value = try number(file: file, what: what())
        guard value >= 0 else { throw InputError(file: file, line: line, "\(what()) is \(NumberText.plain(value)); it must be ≥ 0") }
        return value
    }

    /// A number > 0.
    package func positive(file: String, what: @autoclosure () -> String) throws(InputError) -> Double {
        let value = try number(file: file, what: what())
        guard value > 0 else { throw InputError(file: file, line: line, "\(what()) is \(NumberText.plain(value)); it must be > 0") }
        return value
    }
}
