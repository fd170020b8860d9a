import ABRLab
import ArgumentParser
import Foundation

/// Numbers separated by commas, as `--ladder-kbps 300,750,1200` gives them; the library checks
/// their range.
struct NumberList: ExpressibleByArgument {
    let values: [Double]

    init?(argument: String) {
        let values = argument.split(separator: ",", omittingEmptySubsequences: false).map { StrategyParamValue.decimalNumber($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
        self.values = values.compactMap { $0 }
    }
}
